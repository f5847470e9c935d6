import GLibBridge
import GtkBridge
import XCTest

/// The lobby preview's shape: 16:9 as wide as the column, unless the window is too short for
/// that and what must be seen with it; never below the smallest preview.
final class AspectFitPlan_Tests: XCTestCase {
    private func plan(maximumHeight: Int?) -> AspectFitPlan {
        AspectFitPlan(ratio: 16.0 / 9.0, minimumHeight: 158, maximumHeight: maximumHeight)
    }

    func test_noLimit_heightFollowsTheWidth() {
        XCTAssertEqual(plan(maximumHeight: nil).height(forWidth: 592), 333)
        XCTAssertEqual(plan(maximumHeight: 1000).height(forWidth: 592), 333)
    }

    func test_shortWindow_heightHeldAtTheLimit_andTheChildNarrowedToKeepItsShape() {
        let short = plan(maximumHeight: 200)
        XCTAssertEqual(short.height(forWidth: 592), 200)
        let frame = short.childFrame(width: 592, height: 200)
        XCTAssertEqual(frame.height, 200)
        XCTAssertEqual(frame.width, 355)
        XCTAssertEqual(frame.x, (592 - 355) / 2, "centred")
        XCTAssertEqual(frame.y, 0)
    }

    func test_limitBelowTheMinimum_theMinimumWins() {
        XCTAssertEqual(plan(maximumHeight: 40).height(forWidth: 592), 158)
        XCTAssertEqual(plan(maximumHeight: -20).height(forWidth: 300), 158)
    }

    func test_allocationTallerThanTheShape_childCentredVertically() {
        let frame = plan(maximumHeight: nil).childFrame(width: 320, height: 300)
        XCTAssertEqual(frame.width, 320)
        XCTAssertEqual(frame.height, 180)
        XCTAssertEqual(frame.x, 0)
        XCTAssertEqual(frame.y, 60)
    }

    func test_everyWidth_theChildKeepsTheShapeWithinAPixel() {
        let limited = plan(maximumHeight: 240)
        for width in stride(from: 280, through: 1200, by: 7) {
            let height = limited.height(forWidth: width)
            let frame = limited.childFrame(width: width, height: height)
            XCTAssertLessThanOrEqual(frame.width, width)
            XCTAssertLessThanOrEqual(frame.height, height)
            XCTAssertEqual(Double(frame.width) / 16 * 9, Double(frame.height), accuracy: 1, "at \(width) px")
        }
    }
}
