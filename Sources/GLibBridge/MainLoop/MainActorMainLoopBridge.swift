import CGLib
import Glibc

/// Lets Swift concurrency run on the main thread while a GLib main loop owns it.
///
/// While `g_application_run` (or any `GMainLoop`) blocks the main thread, libdispatch's main
/// queue is never drained, so `Task { @MainActor in }`, `Task.sleep` resumptions on the main
/// actor and `AsyncStream` consumers there would never run. libdispatch signals pending main-queue
/// work through an eventfd; a GLib fd source on that eventfd drains the queue from inside the
/// GLib loop. The eventfd must be read before draining: it is level-triggered, and a source that
/// stays readable spins the loop at 100 % CPU and starves GTK's redraws.
public enum MainActorMainLoopBridge {
    nonisolated(unsafe) private static var sourceID: guint = 0

    /// Installs the bridge on the default GLib main context. Call once, on the main thread,
    /// before running the GLib/GTK main loop. Calling it again does nothing.
    public static func install() {
        MainActor.preconditionIsolated("the main-actor bridge must be installed on the main thread")
        guard sourceID == 0 else { return }
        let eventFD = _dispatch_get_main_queue_handle_4CF()
        sourceID = g_unix_fd_add(eventFD, G_IO_IN, { fd, _, _ in
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
            return gboolean(1) // G_SOURCE_CONTINUE
        }, nil)
    }

    /// Removes the bridge (tests use this to leave the process as they found it).
    public static func uninstall() {
        guard sourceID != 0 else { return }
        g_source_remove(sourceID)
        sourceID = 0
    }

    public static var isInstalled: Bool { sourceID != 0 }
}

/// A GLib main loop of our own, for programs and tests that have no GtkApplication.
public final class MainLoop {
    private let loop: OpaquePointer

    public init() { loop = g_main_loop_new(nil, 0) }
    deinit { g_main_loop_unref(loop) }

    /// Runs until `quit()`; Swift main-actor work runs meanwhile when the bridge is installed.
    public func run() { g_main_loop_run(loop) }

    /// Ends `run()`, from any thread, whether or not it has started. `g_main_loop_quit` alone
    /// is lost when it comes first: `g_main_loop_run` sets the loop running anew. A command that
    /// failed at once on another thread (confab-peer given options it refuses) quit before the
    /// main thread ran the loop, and the peer never exited (once in CI). So the quit is a source
    /// on the loop's context, which `run()` dispatches whenever it starts.
    public func quit() {
        g_idle_add_full(G_PRIORITY_HIGH, { data in
            g_main_loop_quit(OpaquePointer(data))
            return gboolean(0) // G_SOURCE_REMOVE
        }, UnsafeMutableRawPointer(g_main_loop_ref(loop)), { data in g_main_loop_unref(OpaquePointer(data)) })
    }
    public var isRunning: Bool { g_main_loop_is_running(loop) != 0 }

    /// Runs the loop until `condition` holds or `timeout` seconds pass. Returns whether it held.
    @discardableResult
    public static func iterate(until condition: () -> Bool, timeout: Double) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while !condition() {
            if monotonicSeconds() > deadline { return false }
            if g_main_context_iteration(nil, 0) == 0 { usleep(2_000) }
        }
        return true
    }

    /// Adds a one-shot timer on the default main context.
    public static func after(seconds: Double, _ body: @escaping @MainActor () -> Void) {
        once(after: seconds, priority: G_PRIORITY_DEFAULT, body)
    }

    /// Runs `body` once on the default main context, `seconds` from now or later: when nothing
    /// more urgent is ready — input, GTK's layout and painting (G_PRIORITY_DEFAULT_IDLE).
    public static func whenIdle(after seconds: Double = 0, _ body: @escaping @MainActor () -> Void) {
        once(after: seconds, priority: G_PRIORITY_DEFAULT_IDLE, body)
    }

    /// A source that fires once, `seconds` from now, at `priority` (a due source of lower
    /// priority waits while any of higher priority is ready).
    private static func once(after seconds: Double, priority: Int32, _ body: @escaping @MainActor () -> Void) {
        let box = CallbackBox(body)
        g_timeout_add_full(priority, guint(max(0, seconds * 1000)), { data in
            CallbackBox<@MainActor () -> Void>.borrow(data).call()
            return gboolean(0)
        }, box.retainedPointer(), { data in CallbackBox<@MainActor () -> Void>.release(data) })
    }
}

/// Seconds from the monotonic clock (g_get_monotonic_time).
public func monotonicSeconds() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

/// A timer on the GLib main loop that fires every `interval` until cancelled or released.
@MainActor
public final class RepeatingTimer {
    private var sourceID: guint = 0

    public init(interval: Double, _ body: @escaping @MainActor () -> Void) {
        let box = CallbackBox(body)
        sourceID = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(max(1, interval * 1000)), { data in
            CallbackBox<@MainActor () -> Void>.borrow(data).call()
            return gboolean(1)
        }, box.retainedPointer(), { data in CallbackBox<@MainActor () -> Void>.release(data) })
    }

    public func cancel() {
        guard sourceID != 0 else { return }
        g_source_remove(sourceID)
        sourceID = 0
    }

    isolated deinit { cancel() }
}

/// SIGTERM, SIGINT and SIGHUP (a log-out, a shutdown, `kill`) delivered as a call on the main
/// loop instead of ending the process at once, until cancelled or released: a program can
/// finish what must not be cut off (leaving a call) before it quits.
@MainActor
public final class TerminationSignals {
    private var sourceIDs: [guint] = []

    public init(_ body: @escaping @MainActor () -> Void) {
        for number in [SIGTERM, SIGINT, SIGHUP] {
            let box = CallbackBox(body)
            sourceIDs.append(g_unix_signal_add_full(G_PRIORITY_HIGH, number, { data in
                CallbackBox<@MainActor () -> Void>.borrow(data).call()
                return gboolean(1)
            }, box.retainedPointer(), { data in CallbackBox<@MainActor () -> Void>.release(data) }))
        }
    }

    public func cancel() {
        sourceIDs.forEach { g_source_remove($0) }
        sourceIDs = []
    }

    isolated deinit { cancel() }
}
