import CGLib
import CGtk
import CAdwaita

/// AdwApplication: the process's GTK application, its main loop and its style.
@MainActor
public final class Application: GObjectReference {
    public init(id: String) {
        // NON_UNIQUE for now: single-instance activation comes with the D-Bus service file.
        super.init(takingOwnershipOf: adw_application_new(id, G_APPLICATION_NON_UNIQUE))
    }

    /// Runs `body` once the application is ready to create windows.
    public func onActivate(_ body: @escaping @MainActor () -> Void) { onSignal("activate", body) }

    /// Runs the GTK main loop until the last window closes or `quit()`.
    /// Command-line arguments are parsed by the caller, so GTK sees only the program name.
    public func run() -> Int32 {
        MainActorMainLoopBridge.install()
        return g_application_run(c(), 0, nil)
    }

    public func quit() { g_application_quit(c()) }

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
