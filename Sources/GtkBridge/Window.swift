import CGLib
import CGtk
import CAdwaita
import GLibBridge

/// AdwApplicationWindow with our conveniences: content, default widget, close handling, keys.
@MainActor
public final class Window: Widget {
    public init(application: Application, title: String, width: Int, height: Int) {
        super.init(adw_application_window_new(application.c()))
        gtk_window_set_title(c(), title)
        gtk_window_set_default_size(c(), gint(width), gint(height))
    }

    public var title: String {
        get { string(from: gtk_window_get_title(c())) ?? "" }
        set { gtk_window_set_title(c(), newValue) }
    }

    public func setContent(_ content: Widget) { adw_application_window_set_content(c(), content.c()) }

    /// The widget Enter activates when nothing focused consumes it.
    public func setDefaultWidget(_ widget: Widget?) { gtk_window_set_default_widget(c(), widget?.c()) }

    /// Lets go of the default and focus widgets. Call it before taking a page out of the
    /// window: GTK 4.8 keeps pointing at a removed default widget, and a later layout pass
    /// then checks a freed widget (a "gtk_widget_is_ancestor" critical).
    public func forgetDefaultAndFocus() {
        gtk_window_set_default_widget(c(), nil)
        gtk_window_set_focus(c(), nil)
    }

    public func present() { gtk_window_present(c()) }

    /// The size the window opens at (and keeps while not maximized or full screen).
    public var defaultSize: (width: Int, height: Int) {
        get {
            var width: gint = 0, height: gint = 0
            gtk_window_get_default_size(c(), &width, &height)
            return (Int(width), Int(height))
        }
        set { gtk_window_set_default_size(c(), gint(newValue.width), gint(newValue.height)) }
    }

    /// Destroys the window (the app forgets it; the Swift wrapper may outlive it harmlessly).
    public func close() { gtk_window_destroy(c()) }

    public var isActive: Bool { gtk_window_is_active(c()) != 0 }

    public var isFullscreen: Bool { gtk_window_is_fullscreen(c()) != 0 }
    public func toggleFullscreen() { isFullscreen ? gtk_window_unfullscreen(c()) : gtk_window_fullscreen(c()) }

    /// Maximized by the user (through the window manager), or asked to be before it is shown.
    public var isMaximized: Bool { gtk_window_is_maximized(c()) != 0 }
    public func maximize() { gtk_window_maximize(c()) }

    /// Handles the window manager's close request. Return true to keep the window open.
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) {
        let box = CallbackBox(handler)
        let thunk: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            let box = CallbackBox<@MainActor () -> Bool>.borrow(data)
            return MainActor.assumeIsolated { box.body() } ? 1 : 0
        }
        g_signal_connect_data(raw, "close-request", unsafeBitCast(thunk, to: GCallback.self), box.retainedPointer(),
                              { data, _ in CallbackBox<@MainActor () -> Bool>.release(data) }, GConnectFlags(rawValue: 0))
    }

    /// Whether the widget with the keyboard focus takes typed text (an editable entry or text
    /// view): a key the window would take for itself (Space to talk) is then the text's.
    public var focusTakesText: Bool {
        guard let focus = gtk_window_get_focus(c()) else { return false }
        let instance = UnsafeMutableRawPointer(focus).assumingMemoryBound(to: GTypeInstance.self)
        if g_type_check_instance_is_a(instance, gtk_editable_get_type()) != 0 {
            return gtk_editable_get_editable(OpaquePointer(focus)) != 0
        }
        if g_type_check_instance_is_a(instance, gtk_text_view_get_type()) != 0 {
            return gtk_text_view_get_editable(UnsafeMutableRawPointer(focus).assumingMemoryBound(to: GtkTextView.self)) != 0
        }
        return false
    }

    /// Hides the window without destroying it (it keeps its size and place for `present()`).
    public func hide() { gtk_widget_set_visible(widget, 0) }

    /// Makes the window a dialog of `parent` (kept above it, closed with it).
    public func setTransient(for parent: Window?) { gtk_window_set_transient_for(c(), parent?.c()) }
}

extension Widget {
    /// Binds a key combination ("Escape", "<Control>d", "Return") while this widget is in a
    /// window — on a window, for the whole window; on a page, for as long as the page is shown.
    ///
    /// The shortcut runs in the bubble phase, so a focused control that handles the key itself
    /// (Enter on a button, Space on a toggle) keeps it; the window gets what is left.
    public func addShortcut(_ trigger: String, _ action: @escaping @MainActor () -> Void) {
        // Managed scope: the window runs it whatever has the focus, for as long as this widget
        // is inside the window (a page's shortcuts leave with the page).
        let controller: OpaquePointer = gtk_shortcut_controller_new().c()
        gtk_shortcut_controller_set_scope(controller, GTK_SHORTCUT_SCOPE_MANAGED)
        gtk_event_controller_set_propagation_phase(controller.c(), GTK_PHASE_BUBBLE)
        let box = CallbackBox(action)
        let callback: GtkShortcutFunc = { _, _, data in
            CallbackBox<@MainActor () -> Void>.borrow(data).call()
            return 1
        }
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger),
                                        gtk_callback_action_new(callback, box.retainedPointer(), { data in
                                            CallbackBox<@MainActor () -> Void>.release(data)
                                        }))
        gtk_shortcut_controller_add_shortcut(controller, shortcut)
        gtk_widget_add_controller(widget, controller.c())
    }

    /// Handles a key being held and released in this widget (on a window: anywhere in it),
    /// before the focused widget sees it. `pressed` returns true to consume the key (e.g. Space
    /// for push to talk while muted). The handler lasts until the returned handle is removed.
    @discardableResult
    public func onKey(_ name: String, pressed: @escaping @MainActor () -> Bool,
                      released: @escaping @MainActor () -> Void) -> KeyHandler {
        let keyval = gdk_keyval_from_name(name)
        let controller = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        let pressBox = CallbackBox<@MainActor (guint) -> Bool> { pressedKey in pressedKey == keyval && pressed() }
        let releaseBox = CallbackBox<@MainActor (guint) -> Void> { releasedKey in if releasedKey == keyval { released() } }
        g_signal_connect_data(gpointer(controller), "key-pressed", unsafeBitCast(keyPressed, to: GCallback.self), pressBox.retainedPointer(),
                              { data, _ in CallbackBox<@MainActor (guint) -> Bool>.release(data) }, GConnectFlags(rawValue: 0))
        g_signal_connect_data(gpointer(controller), "key-released", unsafeBitCast(keyReleased, to: GCallback.self), releaseBox.retainedPointer(),
                              { data, _ in CallbackBox<@MainActor (guint) -> Void>.release(data) }, GConnectFlags(rawValue: 0))
        gtk_widget_add_controller(widget, controller)
        return KeyHandler(widget: self, controller: controller)
    }
}

/// A key handler added by `onKey`; `remove()` takes it off its widget (the closures go with it).
@MainActor
public final class KeyHandler {
    private weak var widget: Widget?
    private var controller: OpaquePointer?

    init(widget: Widget, controller: OpaquePointer) {
        self.widget = widget
        self.controller = controller
    }

    public func remove() {
        guard let controller, let widget else { return }
        self.controller = nil
        // The widget held the only reference: removing the controller finalizes it and
        // releases the closures.
        gtk_widget_remove_controller(widget.widget, controller)
    }
}

// Key controller signals arrive on the main thread; the thunks live at file scope so they
// carry no actor isolation of their own.
private let keyPressed: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, _, data in
    let box = CallbackBox<@MainActor (guint) -> Bool>.borrow(data)
    return MainActor.assumeIsolated { box.body(keyval) } ? 1 : 0
}

private let keyReleased: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> Void = { _, keyval, _, _, data in
    let box = CallbackBox<@MainActor (guint) -> Void>.borrow(data)
    MainActor.assumeIsolated { box.body(keyval) }
}
