@testable import ConfabDesktop
import XCTest

/// A spotlight strip with more people than fit (issue 14): the tiles scrolled out of view are
/// not watched, so their video is paused at Janus.
final class StripVisibility_Tests: XCTestCase {
    private let tiles: [String: ClosedRange<Double>] = ["bob": 0...220, "carol": 226...446, "dave": 452...672, "erin": 678...898]

    func test_notLaidOut_nobodyIsOutOfView() {
        XCTAssertEqual(StripVisibility.outOfView(tiles, viewport: nil), [])
    }

    func test_startOfALongStrip_theTilesPastItsEnd_areOutOfView() {
        XCTAssertEqual(StripVisibility.outOfView(tiles, viewport: 0...500), ["erin"])
    }

    func test_scrolledToTheEnd_theFirstTiles_areOutOfView() {
        XCTAssertEqual(StripVisibility.outOfView(tiles, viewport: 400...898), ["bob"])
    }

    func test_aSliverAtTheEdge_countsAsOutOfView() {
        XCTAssertEqual(StripVisibility.outOfView(tiles, viewport: 0...455), ["dave", "erin"])
    }

    func test_everythingFits_nobodyIsOutOfView() {
        XCTAssertEqual(StripVisibility.outOfView(tiles, viewport: 0...900), [])
    }
}
