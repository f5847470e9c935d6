import Foundation

/// Runs a test body on the main actor (XCTest on Linux runs tests on the main thread).
func onMain(_ body: @MainActor () throws -> Void) rethrows {
    precondition(Thread.isMainThread)
    try MainActor.assumeIsolated(body)
}
