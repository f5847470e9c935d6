import CGLib
import Dispatch

/// The one-off work a program starts on threads of its own as it starts (the DTLS certificate,
/// the plugin warm-up), which the program waits for before it exits.
///
/// Exiting while it runs crashed confab-peer: `exit` runs OpenSSL's clean-up, which frees the
/// locks the certificate's key generation was still taking (a NULL rwlock, signal 11), seen in
/// a test whose peer joined and left in under a second.
public enum StartupWork {
    private static let running = DispatchGroup()

    /// Runs `body` on a new thread called `name`.
    public static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        running.enter()
        let box = Unmanaged.passRetained(Work(body)).toOpaque()
        // A GLib thread: it carries `name` (what perf and bench-media's --threads show).
        let thread = g_thread_new(name, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            StartupWork.running.leave()
            return nil
        }, box)
        g_thread_unref(thread)
    }

    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Blocks until all of it has finished, or `timeout` seconds have passed; true if finished.
    @discardableResult
    public static func waitUntilFinished(timeout: Double = 10) -> Bool {
        running.wait(timeout: .now() + timeout) == .success
    }
}
