import CGLib
import CGtk
import GLibBridge

/// Base wrapper for every GtkWidget: layout, visibility, focus, accessibility and CSS classes.
@MainActor
open class Widget: GObjectReference {
    var widget: UnsafeMutablePointer<GtkWidget> { c() }
    /// What was last set through this wrapper (see `setAccessibleLabel`).
    private var accessibleLabel: String?
    private var accessibleDescription: String?

    init(_ pointer: UnsafeMutablePointer<GtkWidget>) { super.init(adopting: pointer) }
    init(opaque pointer: OpaquePointer) { super.init(adopting: UnsafeMutableRawPointer(pointer)) }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget is on screen now (visible, and every ancestor mapped).
    public var isMapped: Bool { gtk_widget_get_mapped(widget) != 0 }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    public var tooltip: String? {
        get { string(from: gtk_widget_get_tooltip_text(widget)) }
        // Unchanged text is not set again: each set re-queries the tooltip under the pointer.
        set { if newValue != tooltip { gtk_widget_set_tooltip_text(widget, newValue) } }
    }

    public func addCSSClass(_ name: String) { gtk_widget_add_css_class(widget, name) }
    public func removeCSSClass(_ name: String) { gtk_widget_remove_css_class(widget, name) }
    public func setCSSClass(_ name: String, _ on: Bool) { on ? addCSSClass(name) : removeCSSClass(name) }

    public func setSizeRequest(width: Int, height: Int) { gtk_widget_set_size_request(widget, gint(width), gint(height)) }

    /// The height the widget asks for at the width it has now (a wrapping label's lines), or at
    /// its natural width before it is laid out.
    public var naturalHeight: Int {
        var minimum: gint = 0, natural: gint = 0
        let width = gtk_widget_get_width(widget)
        gtk_widget_measure(widget, GTK_ORIENTATION_VERTICAL, width > 0 ? width : -1, &minimum, &natural, nil, nil)
        return Int(natural)
    }

    public func expand(horizontally: Bool = true, vertically: Bool = true) {
        gtk_widget_set_hexpand(widget, horizontally ? 1 : 0)
        gtk_widget_set_vexpand(widget, vertically ? 1 : 0)
    }

    public enum Alignment { case fill, start, end, center
        var gtk: GtkAlign {
            switch self { case .fill: GTK_ALIGN_FILL; case .start: GTK_ALIGN_START; case .end: GTK_ALIGN_END; case .center: GTK_ALIGN_CENTER }
        }
    }

    public func align(horizontal: Alignment? = nil, vertical: Alignment? = nil) {
        if let horizontal { gtk_widget_set_halign(widget, horizontal.gtk) }
        if let vertical { gtk_widget_set_valign(widget, vertical.gtk) }
    }

    public func setMargins(_ all: Int) { setMargins(top: all, bottom: all, start: all, end: all) }
    public func setMargins(top: Int, bottom: Int, start: Int, end: Int) {
        gtk_widget_set_margin_top(widget, gint(top)); gtk_widget_set_margin_bottom(widget, gint(bottom))
        gtk_widget_set_margin_start(widget, gint(start)); gtk_widget_set_margin_end(widget, gint(end))
    }

    /// Clips children to the widget's rounded corners (the preview's video).
    public func clipChildren() { gtk_widget_set_overflow(widget, GTK_OVERFLOW_HIDDEN) }

    @discardableResult public func grabFocus() -> Bool { gtk_widget_grab_focus(widget) != 0 }
    public var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }
    public var canFocus: Bool {
        get { gtk_widget_get_focusable(widget) != 0 }
        set { gtk_widget_set_focusable(widget, newValue ? 1 : 0) }
    }

    // MARK: Accessibility (what AT-SPI and screen readers read)

    /// The accessible name, e.g. "Camera" for an icon-only toggle.
    public func setAccessibleLabel(_ label: String) {
        // Views update on every change of the state they show (several times a second while
        // someone speaks); an unchanged name is not sent again, or every update would be an
        // event on the accessibility bus for each tile and button.
        guard label != accessibleLabel else { return }
        accessibleLabel = label
        confab_accessible_set_label(widget, label)
    }
    /// The accessible description, read after the name ("Bob, speaking, microphone off").
    public func setAccessibleDescription(_ text: String) {
        guard text != accessibleDescription else { return }
        accessibleDescription = text
        confab_accessible_set_description(widget, text)
    }

    /// The widget's current width and height in pixels (0 before it is allocated).
    public var allocatedSize: (width: Int, height: Int) {
        (Int(gtk_widget_get_width(widget)), Int(gtk_widget_get_height(widget)))
    }

    /// Where the widget starts and ends horizontally in `ancestor`'s coordinates; nil when it
    /// is not inside it or not laid out yet.
    public func horizontalExtent(in ancestor: Widget) -> ClosedRange<Double>? {
        var x = 0.0, y = 0.0
        guard gtk_widget_translate_coordinates(widget, ancestor.widget, 0, 0, &x, &y) != 0 else { return nil }
        let width = Double(gtk_widget_get_width(widget))
        return width > 0 ? x...(x + width) : nil
    }
}

extension Widget {
    /// Puts `text` on the clipboard of the display the widget is on (Copy link).
    public func copyToClipboard(_ text: String) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(widget), text)
    }

    /// Opens `uri` in the user's default app for it (a browser for a link), over this
    /// widget's window.
    public func openURI(_ uri: String) {
        let root = gtk_widget_get_root(widget)
        let window: UnsafeMutablePointer<GtkWindow>? = root.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
        gtk_show_uri(window, uri, guint32(GDK_CURRENT_TIME))
    }
}
