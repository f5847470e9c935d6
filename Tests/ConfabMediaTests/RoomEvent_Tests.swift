@testable import ConfabMedia
import JanusProtocol
import XCTest

/// What the publisher handle makes of the VideoRoom's news, from frames as Janus sends them.
/// Feed ids above 2^53 must come through exact: the earlier client read ids through `Double`
/// and dropped those (such a publisher was never received).
final class RoomEvent_Tests: XCTestCase {
    private func events(_ frame: String) throws -> [RoomEvent] {
        guard case .event(_, _, let data, _) = try JanusReply.decode(frame) else { throw XCTSkip("not an event: \(frame)") }
        return RoomEvent.parse(data)
    }

    private func event(_ data: String) -> String {
        #"{"janus":"event","session_id":1,"sender":2,"plugindata":{"plugin":"janus.plugin.videoroom","data":\#(data)}}"#
    }

    func test_newPublisherAbove2to53_isSubscribedByItsExactId() throws {
        let frame = event(#"{"videoroom":"event","room":4242,"publishers":[{"id":9007199254740993,"display":"chromium","talking":true}]}"#)
        XCTAssertEqual(try events(frame), [.publishers([PublishedFeed(id: 9_007_199_254_740_993, display: "chromium", isTalking: true)])])
    }

    func test_someoneElseUnpublishingOrLeaving_isALeave_ourOwnOkIsNot() throws {
        XCTAssertEqual(try events(event(#"{"videoroom":"event","room":4242,"unpublished":18446744073709551615}"#)),
                       [.left(18_446_744_073_709_551_615)])
        XCTAssertEqual(try events(event(#"{"videoroom":"event","room":4242,"leaving":9007199254740993}"#)), [.left(9_007_199_254_740_993)])
        XCTAssertEqual(try events(event(#"{"videoroom":"event","room":4242,"unpublished":"ok"}"#)), [])
        XCTAssertEqual(try events(event(#"{"videoroom":"event","room":4242,"leaving":"ok"}"#)), [])
    }

    func test_talkingAndStoppedTalking() throws {
        XCTAssertEqual(try events(event(#"{"videoroom":"talking","room":4242,"id":9007199254740993,"audio-level-dBov-avg":-30.1}"#)),
                       [.talking(9_007_199_254_740_993, true)])
        XCTAssertEqual(try events(event(#"{"videoroom":"stopped-talking","room":4242,"id":7,"audio-level-dBov-avg":-60}"#)), [.talking(7, false)])
    }

    func test_otherNews_isNothingToActOn() throws {
        XCTAssertEqual(try events(event(#"{"videoroom":"event","room":4242,"configured":"ok"}"#)), [])
        XCTAssertEqual(try events(event(#"{"videoroom":"destroyed","room":4242}"#)), [])
        XCTAssertEqual(RoomEvent.parse(nil), [])
    }
}
