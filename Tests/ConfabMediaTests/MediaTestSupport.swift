import Foundation
import GLibBridge

/// Runs a test body on the main actor (XCTest on Linux runs tests on the main thread).
func onMain(_ body: @MainActor () throws -> Void) rethrows {
    precondition(Thread.isMainThread)
    try MainActor.assumeIsolated(body)
}

/// Runs the GLib main loop (where bus messages and frames arrive) until `condition` holds.
@MainActor
@discardableResult
func runLoop(until condition: () -> Bool, timeout: Double = 10) -> Bool {
    MainLoop.iterate(until: condition, timeout: timeout)
}
