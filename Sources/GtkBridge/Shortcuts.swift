import CGLib
import CGtk
import GLibBridge

/// The Shortcuts window, built from GtkBuilder XML (a GtkShortcutsWindow with id "shortcuts").
@MainActor
public final class ShortcutsWindow: Widget {
    public init?(builderXML: String, transientFor parent: Window?) {
        let builder = gtk_builder_new_from_string(builderXML, -1)
        defer { if let builder { g_object_unref(gpointer(builder)) } }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return nil }
        super.init(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self))
        if let parent { gtk_window_set_transient_for(c(), parent.c()) }
    }

    public func present() { gtk_window_present(c()) }
}
