import Foundation
import XCTest

/// Runs one test of this test binary again, in a process of its own, with `environment` added to
/// ours; what it printed, once it passed. For checks that need a fresh process (GStreamer's
/// registry, OpenSSL's key generation): the test runs them there, told by a variable it sets.
/// - Parameter test: "Target.Class/method", as `swift test --filter` names it.
public func runTestInItsOwnProcess(_ test: String, adding environment: [String: String],
                                   file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let (status, text) = try runToEnd(URL(fileURLWithPath: CommandLine.arguments[0]), [test],
                                      environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    XCTAssertEqual(status, 0, text, file: file, line: line)
    XCTAssertTrue(text.contains("Executed 1 test, with 0 failures"), text, file: file, line: line)
    return text
}
