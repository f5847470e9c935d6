import CGLib
import CGtk
import GLibBridge

/// GtkTextView for writing a message: several lines, Enter sends and Shift+Enter breaks the
/// line (as in chat apps; GTK's own Enter would only insert a newline).
@MainActor
public final class MessageTextView: Widget {
    private var submit: (@MainActor () -> Void)?

    public init(accessibleLabel: String) {
        super.init(gtk_text_view_new())
        gtk_text_view_set_wrap_mode(c(), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(c(), 0)
        setAccessibleLabel(accessibleLabel)
        // Capture phase: the key reaches us before the view inserts a newline for it.
        let controller = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        let box = CallbackBox<@MainActor (guint, GdkModifierType) -> Bool> { [weak self] keyval, modifiers in
            guard let self, keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter else { return false }
            // Shift+Enter goes on to the view, which breaks the line.
            guard modifiers.rawValue & GDK_SHIFT_MASK.rawValue == 0 else { return false }
            self.submit?()
            return true
        }
        g_signal_connect_data(gpointer(controller), "key-pressed", unsafeBitCast(messageKeyPressed, to: GCallback.self), box.retainedPointer(),
                              { data, _ in CallbackBox<@MainActor (guint, GdkModifierType) -> Bool>.release(data) }, GConnectFlags(rawValue: 0))
        gtk_widget_add_controller(widget, controller)
    }

    /// What Enter does (send); set once.
    public func onSubmit(_ action: @escaping @MainActor () -> Void) { submit = action }

    public var text: String {
        get {
            let buffer = gtk_text_view_get_buffer(c())
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
            defer { g_free(chars) }
            return String(cString: chars)
        }
        set { gtk_text_buffer_set_text(gtk_text_view_get_buffer(c()), newValue, -1) }
    }
}

// Key controller signals arrive on the main thread; the thunk carries no actor isolation.
private let messageKeyPressed: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, modifiers, data in
    let box = CallbackBox<@MainActor (guint, GdkModifierType) -> Bool>.borrow(data)
    return MainActor.assumeIsolated { box.body(keyval, modifiers) } ? 1 : 0
}
