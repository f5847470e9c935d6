import ConfabProtocol
import XCTest
@testable import ConfabServer

/// Where rooms go among Janus nodes, as a value: least load first, a call keeps its node, a
/// moved call leaves its tokens behind.
final class JanusPlacementsTests: XCTestCase {
    private let a = JanusPlacements.NodeID(index: 0), b = JanusPlacements.NodeID(index: 1)
    private func cid(_ id: String) -> CallID { CallID(type: .default, id: id) }

    func test_byLoad_fewestParticipantsFirst_thenFewestRooms_thenConfiguredOrder() {
        var placements = JanusPlacements()
        XCTAssertEqual(placements.byLoad([b, a]), [a, b], "ties go to the first configured")
        placements.place(cid("one"), on: a)
        XCTAssertEqual(placements.byLoad([a, b]), [b, a], "an idle room counts when participants tie")
        placements.place(cid("two"), on: b)
        placements.admitted("t1", to: cid("two"))
        XCTAssertEqual(placements.byLoad([a, b]), [a, b], "participants weigh before rooms")
    }

    func test_placingAgainOnTheSameNode_keepsTokens_movingDropsThem() {
        var placements = JanusPlacements()
        placements.place(cid("c"), on: a)
        placements.admitted("t1", to: cid("c"))
        placements.place(cid("c"), on: a)
        XCTAssertEqual(placements.load(of: a), .init(rooms: 1, participants: 1))
        placements.place(cid("c"), on: b)
        XCTAssertEqual(placements.load(of: a), .init())
        XCTAssertEqual(placements.load(of: b), .init(rooms: 1, participants: 0))
        XCTAssertFalse(placements.revoked("t1", from: cid("c")), "a token of the room left behind is not on the new node")
    }

    func test_revokedAndRemoved_lowerTheLoad() {
        var placements = JanusPlacements()
        placements.place(cid("c"), on: b)
        placements.admitted("t1", to: cid("c"))
        XCTAssertTrue(placements.revoked("t1", from: cid("c")))
        XCTAssertEqual(placements.load(of: b), .init(rooms: 1, participants: 0))
        XCTAssertEqual(placements.calls(on: b), [cid("c")])
        placements.remove(cid("c"))
        XCTAssertEqual(placements.load(of: b), .init())
        XCTAssertNil(placements.node(of: cid("c")))
    }
}
