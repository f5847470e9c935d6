import CGLib

/// Carries a Swift closure through a C `gpointer user_data` and back.
///
/// GLib calls the C thunks on the thread that owns the main context (the main thread for
/// everything we connect), so the box is `@unchecked Sendable` and the thunks enter the main
/// actor with `assumeIsolated`.
final class CallbackBox<Body>: @unchecked Sendable {
    let body: Body
    init(_ body: Body) { self.body = body }

    /// A +1 pointer for `user_data`; balance it with `release` in the destroy notify.
    func retainedPointer() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    static func borrow(_ pointer: gpointer?) -> CallbackBox<Body> {
        Unmanaged<CallbackBox<Body>>.fromOpaque(pointer!).takeUnretainedValue()
    }

    static func release(_ pointer: gpointer?) {
        guard let pointer else { return }
        Unmanaged<CallbackBox<Body>>.fromOpaque(pointer).release()
    }
}

extension CallbackBox where Body == @MainActor () -> Void {
    func call() { MainActor.assumeIsolated { body() } }
}

/// The destroy notify shared by every closure box connected to a GLib signal.
let releaseVoidCallback: GClosureNotify = { data, _ in
    CallbackBox<@MainActor () -> Void>.release(data)
}
