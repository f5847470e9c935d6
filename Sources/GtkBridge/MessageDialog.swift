import CGLib
import CGtk
import CAdwaita
import GLibBridge

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

extension MessageDialog {
    /// Asks a yes/no question over the window `widget` is in: `confirm` is the suggested
    /// answer, `cancel` (also Escape and closing the dialog) the other. True when confirmed.
    /// `destructive` marks the confirming answer red (Remove, Block), as GNOME does for what can't be undone.
    public static func ask(heading: String, body: String, cancel: String, confirm: String, destructive: Bool = false,
                           over widget: Widget?) async -> Bool {
        let root = widget.flatMap { gtk_widget_get_root($0.widget) }
        let parent: UnsafeMutablePointer<GtkWindow>? = root.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
        let dialog = adw_message_dialog_new(parent, heading, body)!
        adw_message_dialog_add_response(dialog.c(), "cancel", cancel)
        adw_message_dialog_add_response(dialog.c(), "confirm", confirm)
        adw_message_dialog_set_response_appearance(dialog.c(), "confirm", destructive ? ADW_RESPONSE_DESTRUCTIVE : ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(dialog.c(), "cancel")
        adw_message_dialog_set_close_response(dialog.c(), "cancel")
        return await withCheckedContinuation { continuation in
            let box = CallbackBox<@MainActor (String) -> Void> { response in continuation.resume(returning: response == "confirm") }
            let thunk: @convention(c) (gpointer?, UnsafePointer<CChar>?, gpointer?) -> Void = { _, response, data in
                let box = CallbackBox<@MainActor (String) -> Void>.borrow(data)
                let answer = response.map { String(cString: $0) } ?? "cancel"
                MainActor.assumeIsolated { box.body(answer) }
            }
            // The dialog answers once and then destroys itself, releasing the handler with it.
            g_signal_connect_data(gpointer(dialog), "response", unsafeBitCast(thunk, to: GCallback.self), box.retainedPointer(),
                                  { data, _ in CallbackBox<@MainActor (String) -> Void>.release(data) }, GConnectFlags(rawValue: 0))
            gtk_window_present(dialog.c())
        }
    }
}

extension Widget {
    /// Whether the widget is in a window now (a destroyed window lets go of its children).
    public var isInWindow: Bool { gtk_widget_get_root(widget) != nil }
}
