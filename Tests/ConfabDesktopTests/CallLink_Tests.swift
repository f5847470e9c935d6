import ConfabCore
import ConfabDesktop
import XCTest

/// `confab:` links as the desktop hands them over (issue 16, item 8: a shared link carries the
/// call's secret, because calls are private).
final class CallLink_Tests: XCTestCase {
    func test_linkWithoutSecret_opensTheCallWithNoSecret() throws {
        let link = try XCTUnwrap(CallLink("confab://join/default/standup"))
        XCTAssertEqual(link.call, CallID(type: .default, id: "standup"))
        XCTAssertNil(link.secret)
    }

    func test_linkWithSecret_carriesIt() throws {
        let link = try XCTUnwrap(CallLink("confab://join/default/standup?secret=0123456789abcdef0123456789abcdef"))
        XCTAssertEqual(link.call, CallID(type: .default, id: "standup"))
        XCTAssertEqual(link.secret, "0123456789abcdef0123456789abcdef")
    }

    func test_linkWithAnEmptyOrRepeatedSecret_isRejected() {
        XCTAssertNil(CallLink("confab://join/default/standup?secret="))
        XCTAssertNil(CallLink("confab://join/default/standup?secret=a&secret=b"))
    }

    func test_linkMadeForSharing_readsBackAsTheSameCallAndSecret() throws {
        let shared = CallLink(call: CallID(type: .audioRoom, id: "town-hall.2"), secret: "0123456789abcdef0123456789abcdef")
        XCTAssertEqual(shared.text, "confab://join/audio_room/town-hall.2?secret=0123456789abcdef0123456789abcdef")
        XCTAssertEqual(CallLink(shared.text), shared)
    }
}
