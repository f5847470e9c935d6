@_exported import ConfabTestSupport
import Foundation
import GLibBridge

/// Runs the GLib main loop (where bus messages and frames arrive) until `condition` holds.
@MainActor
@discardableResult
func runLoop(until condition: () -> Bool, timeout: Double = 10) -> Bool {
    MainLoop.iterate(until: condition, timeout: timeout)
}
