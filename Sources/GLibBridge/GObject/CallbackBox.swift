import CGLib

/// Carries a Swift closure through a C `gpointer user_data` and back.
///
/// GLib calls the C thunks on the thread that owns the main context (the main thread for
/// everything we connect), so the box is `@unchecked Sendable` and the thunks enter the main
/// actor with `assumeIsolated`.
package final class CallbackBox<Body>: @unchecked Sendable {
    package let body: Body
    package init(_ body: Body) { self.body = body }

    /// A +1 pointer for `user_data`; balance it with `release` in the destroy notify.
    package func retainedPointer() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    package static func borrow(_ pointer: gpointer?) -> CallbackBox<Body> {
        Unmanaged<CallbackBox<Body>>.fromOpaque(pointer!).takeUnretainedValue()
    }

    package static func release(_ pointer: gpointer?) {
        guard let pointer else { return }
        Unmanaged<CallbackBox<Body>>.fromOpaque(pointer).release()
    }
}

extension CallbackBox where Body == @MainActor () -> Void {
    package func call() { MainActor.assumeIsolated { body() } }
}

/// The destroy notify shared by every closure box connected to a GLib signal.
package let releaseVoidCallback: GClosureNotify = { data, _ in
    CallbackBox<@MainActor () -> Void>.release(data)
}
