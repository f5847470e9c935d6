import Foundation
import XCTest

/// Runs a test body on the main actor (XCTest on Linux runs tests on the main thread but
/// cannot call main-actor test methods directly).
public func onMain(_ body: @MainActor () throws -> Void) rethrows {
    precondition(Thread.isMainThread)
    try MainActor.assumeIsolated(body)
}

/// Lets main-actor tasks run (the run loop drains the main queue) until `condition` holds.
@MainActor
public func waitUntil(timeout: TimeInterval = 3, _ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() && Date() < deadline {
        RunLoop.main.run(until: Date().addingTimeInterval(0.005))
    }
    XCTAssertTrue(condition(), "condition not met within \(timeout) s", file: file, line: line)
}

/// Lets already-scheduled main-actor work run (observation callbacks hop through a Task).
@MainActor
public func settle() {
    for _ in 0..<5 { RunLoop.main.run(until: Date().addingTimeInterval(0.002)) }
}

/// Lets main-actor work run for `seconds` (to show that something does *not* happen meanwhile).
@MainActor
public func settle(seconds: TimeInterval) {
    RunLoop.main.run(until: Date().addingTimeInterval(seconds))
}
