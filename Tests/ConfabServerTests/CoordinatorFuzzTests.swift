import Foundation
import XCTest

/// A short run of `meson-helpers/fuzz-coordinator` (20,000 mutated frames of every request type,
/// fixed seed) against the real `confab-server` process: it must answer every frame, stay up,
/// and hold no call in memory afterwards (issue 16).
final class CoordinatorFuzzTests: XCTestCase {
    func test_20kMutatedFrames_serverStaysUp_answersThemAll_andMemoryReturnsToBaseline() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let figures = FileManager.default.temporaryDirectory.appendingPathComponent("confab-fuzz-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: figures) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repository.appendingPathComponent("meson-helpers/fuzz-coordinator").path,
                             "--frames", "20000", "--seed", "1", "--server-binary", try ServerBinary.executable().path,
                             "--json", figures.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print(text)
        XCTAssertEqual(process.terminationStatus, 0, text)
        let data = try Data(contentsOf: figures)
        let result = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
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
