import CGLib
import CGtk
import CAdwaita

/// AdwMessageDialog: a heading, a paragraph and a Close button, over the window of a widget.
@MainActor
public enum MessageDialog {
    /// Shows the dialog over the window `widget` is in (or on its own when it is in none).
    public static func present(heading: String, body: String, over widget: Widget) {
        let root = gtk_widget_get_root(widget.widget)
        let parent: UnsafeMutablePointer<GtkWindow>? = root.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
        let dialog = adw_message_dialog_new(parent, heading, body)!
        adw_message_dialog_add_response(dialog.c(), "close", "_Close")
        adw_message_dialog_set_default_response(dialog.c(), "close")
        adw_message_dialog_set_close_response(dialog.c(), "close")
        gtk_window_present(dialog.c()) // the dialog destroys itself on a response
    }
}

extension Widget {
    /// Whether the widget is in a window now (a destroyed window lets go of its children).
    public var isInWindow: Bool { gtk_widget_get_root(widget) != nil }
}
