import Foundation
import XCTest

/// A short run of `meson-helpers/fuzz-coordinator` (20,000 mutated frames of every request type,
/// fixed seed) against the real `confab-server` process: it must answer every frame, stay up,
/// and hold no call in memory afterwards (issue 16).
final class CoordinatorFuzzTests: XCTestCase {
    func test_20kMutatedFrames_serverStaysUp_answersThemAll_andMemoryReturnsToBaseline() async throws {
        let run = try ServerScript.run("fuzz-coordinator", ["--frames", "20000", "--seed", "1"])
        let result = run.figures, text = run.output
        XCTAssertEqual(result["serverAlive"] as? Bool, true, text)
        XCTAssertEqual(result["unanswered"] as? Int, 0, text)
        XCTAssertEqual(result["callsInMemoryAfter"] as? Int, 0, text)
        XCTAssertEqual(result["sessionsInMemoryAfter"] as? Int, 0, text)
        // "Near baseline": the allocator keeps some of what it was given; a leak of what 20,000
        // frames create (hundreds of calls) would be far more.
        let before = try XCTUnwrap(result["rssBeforeKiB"] as? Int), after = try XCTUnwrap(result["rssAfterKiB"] as? Int)
        XCTAssertLessThan(after - before, 32 * 1024, text)
    }
}
