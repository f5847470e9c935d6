import CGLib
import CGtk
import CAdwaita
import GLibBridge

/// AdwApplication: the process's GTK application, its main loop and its style.
@MainActor
public final class Application: GObjectReference {
    /// A unique application owns `id` on the session bus: a second launch hands its links
    /// ("open") or its activation to the first instance and exits (see Application+Desktop.swift).
    /// A non-unique one still opens links itself (HANDLES_OPEN either way: `--call` is a link).
    public init(id: String, unique: Bool = false) {
        let flags = unique ? G_APPLICATION_HANDLES_OPEN
            : GApplicationFlags(rawValue: G_APPLICATION_HANDLES_OPEN.rawValue | G_APPLICATION_NON_UNIQUE.rawValue)
        super.init(takingOwnershipOf: adw_application_new(id, flags))
    }

    /// With the cairo renderer asked for (`GSK_RENDERER=cairo`: no GPU worth using, as in a
    /// virtual machine or under Xvfb), GTK 4.8 on X11 still loads GL as it opens the display, to
    /// pick a visual for GL windows that will never be made: Mesa's software driver and LLVM,
    /// about 20 MiB of each app's footprint (bench-media, two apps in a call: PSS 105–106 → 84–88
    /// MiB each). `GDK_DEBUG=gl-disable` tells it not to. Must run before GTK opens the display,
    /// and, as it sets a variable, before the process starts any thread.
    public static func leaveGLUnloadedWhenRenderingWithCairo() {
        guard let renderer = g_getenv("GSK_RENDERER").map({ String(cString: $0) }), renderer == "cairo" else { return }
        let debug = g_getenv("GDK_DEBUG").map { String(cString: $0) } ?? ""
        guard !debug.split(separator: ",").contains("gl-disable") else { return }
        g_setenv("GDK_DEBUG", debug.isEmpty ? "gl-disable" : "\(debug),gl-disable", 1)
    }

    /// libadwaita styles every widget itself: as it starts it sets GTK's theme to an empty one
    /// of its own ("Adwaita-empty"), by which time GTK has parsed its default theme, rules that
    /// are thrown away (the lobby's start, process to first picture: see `make bench`). GTK's
    /// settings made with the empty theme asked for (`GTK_THEME`) skip that parse; `run` makes
    /// them, then takes the variable away again: libadwaita leaves the styling to GTK's theme
    /// when it finds it set. A theme the user asked for with GTK_THEME is left alone.
    ///
    /// Call it before the process starts any thread: setting a variable may move the
    /// environment while another thread reads it.
    public static func askForLibadwaitasEmptyTheme() {
        guard g_getenv("GTK_THEME") == nil else { return }
        g_setenv("GTK_THEME", emptyTheme, 1)
        asksForEmptyTheme = true
    }

    private static let emptyTheme = "Adwaita-empty"
    private static var asksForEmptyTheme = false

    /// GTK's settings, with the theme `askForLibadwaitasEmptyTheme` asked for, then the
    /// variable gone. Without a display GTK is not started here (GtkApplication says why as it
    /// starts).
    private static func makeSettingsWithTheEmptyTheme() {
        guard asksForEmptyTheme else { return }
        asksForEmptyTheme = false
        // (Taking a variable away moves no memory: safe with threads running.)
        defer { g_unsetenv("GTK_THEME") }
        guard gtk_init_check() != 0, let display = gdk_display_get_default() else { return }
        _ = gtk_settings_get_for_display(display)
    }

    /// Runs `body` once the application is ready to create windows.
    public func onActivate(_ body: @escaping @MainActor () -> Void) { onSignal("activate", body) }

    /// Runs the GTK main loop until the last window closes or `quit()`.
    /// Command-line arguments are parsed by the caller, so GTK sees only the program name and
    /// what the caller passes on: links to open and `--gapplication-service`.
    public func run(arguments: [String] = []) -> Int32 {
        MainActorMainLoopBridge.install()
        Self.makeSettingsWithTheEmptyTheme()
        guard !arguments.isEmpty else { return g_application_run(c(), 0, nil) }
        var argv: [UnsafeMutablePointer<CChar>?] = ([CommandLine.arguments.first ?? "confab"] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        return argv.withUnsafeMutableBufferPointer { g_application_run(c(), gint(arguments.count + 1), $0.baseAddress) }
    }

    public func quit() { g_application_quit(c()) }

    /// Registers an application action ("app.NAME") that notifications and menus can trigger.
    public func addAction(_ name: String, _ handler: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new(name, nil)!
        let box = CallbackBox(handler)
        g_signal_connect_data(gpointer(action), "activate", unsafeBitCast(actionActivated, to: GCallback.self), box.retainedPointer(),
                              releaseVoidCallback, GConnectFlags(rawValue: 0))
        g_action_map_add_action(c(), action.c())
        g_object_unref(gpointer(action))
    }

    /// An application action that takes a string, which a notification's button names after
    /// the action ("app.call-back::bob" runs `handler("bob")`).
    public func addAction(_ name: String, takingString handler: @escaping @MainActor (String) -> Void) {
        let type = g_variant_type_new("s")
        let action = g_simple_action_new(name, type)!
        g_variant_type_free(type)
        let box = CallbackBox(handler)
        g_signal_connect_data(gpointer(action), "activate", unsafeBitCast(stringActionActivated, to: GCallback.self), box.retainedPointer(),
                              { data, _ in CallbackBox<@MainActor (String) -> Void>.release(data) }, GConnectFlags(rawValue: 0))
        g_action_map_add_action(c(), action.c())
        g_object_unref(gpointer(action))
    }

    /// Runs the application action `name` ("preferences"), as a menu item or shortcut would.
    public func activateAction(_ name: String) {
        g_action_group_activate_action(c(), name, nil)
    }

    /// Sends a desktop notification with buttons that trigger application actions ("app.accept-call").
    public func sendNotification(id: String, title: String, body: String, urgent: Bool, buttons: [(label: String, action: String)]) {
        let notification = g_notification_new(title)
        g_notification_set_body(notification, body)
        if urgent { g_notification_set_priority(notification, G_NOTIFICATION_PRIORITY_URGENT) }
        for button in buttons { g_notification_add_button(notification, button.label, button.action) }
        g_application_send_notification(c(), id, notification)
        g_object_unref(gpointer(notification))
    }

    public func withdrawNotification(id: String) { g_application_withdraw_notification(c(), id) }

    /// Whether any of the application's windows has the keyboard focus.
    public var hasActiveWindow: Bool { gtk_application_get_active_window(c()).map { gtk_window_is_active($0) != 0 } ?? false }

    /// Keeps the application running with no window open (e.g. between screens).
    public func hold() { g_application_hold(c()) }
    public func release() { g_application_release(c()) }

    /// Loads a CSS file for the whole display.
    public static func loadStyleSheet(path: String) {
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_path(provider, path)
        if let display = gdk_display_get_default() {
            gtk_style_context_add_provider_for_display(display, provider!.c(), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        g_object_unref(gpointer(provider))
    }
}

private let actionActivated: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    CallbackBox<@MainActor () -> Void>.borrow(data).call()
}

private let stringActionActivated: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, parameter, data in
    // GIO checks the parameter against the action's type before it emits "activate".
    guard let parameter else { return }
    let value = String(cString: g_variant_get_string(parameter, nil))
    let handler = CallbackBox<@MainActor (String) -> Void>.borrow(data).body
    MainActor.assumeIsolated { handler(value) }
}
