import CGLib
import CGtk
import GLibBridge

/// What a desktop app needs from GtkApplication beyond windows: start-up before any window,
/// links handed over by a second launch, background (service) mode, keyboard accelerators for
/// application actions, and inhibiting log-out, suspend and idle.
extension Application {
    /// Runs `body` once in the primary instance, before "activate" or "open" (never in a second
    /// launch that only forwards to the first).
    public func onStartup(_ body: @escaping @MainActor () -> Void) { onSignal("startup", body) }

    /// Runs `body` with the URIs (e.g. "confab://join/default/standup") given to this instance
    /// or forwarded to it by a second launch.
    public func onOpen(_ body: @escaping @MainActor ([String]) -> Void) {
        let box = CallbackBox<@MainActor ([String]) -> Void>(body)
        g_signal_connect_data(raw, "open", unsafeBitCast(openThunk, to: GCallback.self), box.retainedPointer(),
                              { data, _ in CallbackBox<@MainActor ([String]) -> Void>.release(data) }, GConnectFlags(rawValue: 0))
    }

    /// Started with `--gapplication-service` (by D-Bus activation or the background autostart entry).
    public var isService: Bool { g_application_get_flags(c()).rawValue & G_APPLICATION_IS_SERVICE.rawValue != 0 }

    /// Whether the application has any window left (closed windows are gone from the list).
    public var hasWindows: Bool { gtk_application_get_windows(c()) != nil }

    /// Binds keyboard accelerators ("<Control>q") to an application action ("app.quit").
    public func setAccelerators(_ accelerators: [String], for action: String) {
        var list: [UnsafeMutablePointer<CChar>?] = accelerators.map { strdup($0) } + [nil]
        defer { list.forEach { free($0) } }
        list.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_application_set_accels_for_action(c(), action, $0)
            }
        }
    }

    /// Asks the session not to suspend or blank the screen, and to ask the user before logging
    /// out or shutting down, giving `reason` (gtk_application_inhibit: GNOME lists it in its
    /// log-out dialog); returns a cookie for `uninhibit`, or nil when the session refuses or has
    /// no such service.
    public func inhibitLogoutSuspendAndIdle(reason: String) -> UInt32? {
        let flags = GtkApplicationInhibitFlags(rawValue: GTK_APPLICATION_INHIBIT_LOGOUT.rawValue | GTK_APPLICATION_INHIBIT_SUSPEND.rawValue
            | GTK_APPLICATION_INHIBIT_IDLE.rawValue)
        let cookie = gtk_application_inhibit(c(), gtk_application_get_active_window(c()), flags, reason)
        return cookie == 0 ? nil : cookie
    }

    public func uninhibit(_ cookie: UInt32) { gtk_application_uninhibit(c(), cookie) }
}

/// GApplication emits "open" on the main thread.
private let openThunk: @convention(c) (gpointer?, UnsafeMutablePointer<OpaquePointer?>?, gint, UnsafePointer<gchar>?, gpointer?) -> Void = { _, files, count, _, data in
    var uris: [String] = []
    for index in 0..<Int(max(count, 0)) {
        if let file = files?[index], let uri = takeString(g_file_get_uri(file)) { uris.append(uri) }
    }
    let box = CallbackBox<@MainActor ([String]) -> Void>.borrow(data)
    MainActor.assumeIsolated { box.body(uris) }
}
