import ConfabCore
import XCTest

/// The self-view drops to every other frame in a big call, and only there.
final class SelfViewRate_Tests: XCTestCase {
    func test_allFramesUpToTwoOthers_everyOtherFromThree() {
        XCTAssertEqual((0...6).map { SelfViewRate.frameStep(othersInCall: $0) }, [1, 1, 1, 2, 2, 2, 2])
    }
}
