import CGLib
import CGtk
import CAdwaita
import GLibBridge

/// GtkLabel.
@MainActor
public final class Label: Widget {
    public init(_ text: String = "", cssClasses: [String] = []) {
        super.init(opaque: OpaquePointer(gtk_label_new(text)))
        cssClasses.forEach(addCSSClass)
    }

    init(built pointer: UnsafeMutablePointer<GtkWidget>) { super.init(pointer) }

    public var text: String {
        get { string(from: gtk_label_get_text(c())) ?? "" }
        // Unchanged text is not set again (no relayout, no accessibility event).
        set { if newValue != text { gtk_label_set_text(c(), newValue) } }
    }

    /// Lets the text end in "…" when there is not room for all of it (a status beside a meter
    /// on a phone-sized window), instead of widening what holds it.
    public func ellipsizeAtEnd() { gtk_label_set_ellipsize(c(), PANGO_ELLIPSIZE_END) }

    /// Shows Pango markup (links as `<a href>` are clickable); build it with `Label.escape`.
    public func setMarkup(_ markup: String) { gtk_label_set_markup(c(), markup) }

    /// `text` made safe to put into markup (what a user typed must never be read as markup).
    public static func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    /// Wrapped text aligned to the start, as wide as its container lets it be (a chat message).
    public func wrapAtStart() {
        gtk_label_set_wrap(c(), 1)
        gtk_label_set_wrap_mode(c(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_justify(c(), GTK_JUSTIFY_LEFT)
        gtk_label_set_xalign(c(), 0)
    }

    /// Lets the user select and copy the text (links).
    public func makeSelectable() { gtk_label_set_selectable(c(), 1) }

    /// Centred lines; a word longer than the line (a long user id) is broken too, rather
    /// than widening what holds the label.
    public func wrap(_ on: Bool = true) {
        gtk_label_set_wrap(c(), on ? 1 : 0)
        gtk_label_set_wrap_mode(c(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_justify(c(), GTK_JUSTIFY_CENTER)
    }

    /// Wrapped text aligned to the start, at most `characters` wide (a note in a menu, which
    /// would otherwise ask for the whole sentence on one line and widen the menu).
    public func wrapAtStart(maximumCharacters characters: Int) {
        gtk_label_set_wrap(c(), 1)
        gtk_label_set_justify(c(), GTK_JUSTIFY_LEFT)
        gtk_label_set_xalign(c(), 0)
        gtk_label_set_max_width_chars(c(), gint(characters))
    }
}

/// GtkButton with a text label and/or an icon.
@MainActor
public class Button: Widget {
    public init(label: String) {
        super.init(gtk_button_new_with_label(label))
    }

    public init(iconName: String, accessibleLabel: String) {
        super.init(gtk_button_new_from_icon_name(iconName))
        setAccessibleLabel(accessibleLabel)
        tooltip = accessibleLabel
    }

    /// A flat menu-style entry: an icon and a label side by side (an overflow menu's items).
    public init(iconName: String, label: String) {
        super.init(gtk_button_new())
        makeMenuEntry(iconName: iconName, label: label)
    }

    /// Makes the button a flat menu entry showing an icon and a label, left-aligned.
    func makeMenuEntry(iconName: String, label: String) {
        let content = adw_button_content_new()!
        gtk_widget_set_halign(content, GTK_ALIGN_START)
        gtk_button_set_child(c(), content)
        addCSSClass("flat")
        setEntry(iconName: iconName, label: label)
    }

    /// Changes a menu entry's icon and label (its accessible name follows the label).
    public func setEntry(iconName: String, label: String) {
        guard let child = gtk_button_get_child(c()),
              g_type_check_instance_is_a(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GTypeInstance.self), adw_button_content_get_type()) != 0
        else { return }
        let content = OpaquePointer(child)
        if string(from: adw_button_content_get_label(content)) != label { adw_button_content_set_label(content, label) }
        if string(from: adw_button_content_get_icon_name(content)) != iconName { adw_button_content_set_icon_name(content, iconName) }
        // No accessible label of our own: AdwButtonContent names the button after its label
        // (labelled-by), and a label set here would be read twice ("Copy link Copy link").
    }

    init(existing pointer: UnsafeMutablePointer<GtkWidget>) { super.init(pointer) }

    public var label: String? {
        get { string(from: gtk_button_get_label(c())) }
        set { if newValue != label { gtk_button_set_label(c(), newValue) } }
    }

    public func setIconName(_ name: String) { gtk_button_set_icon_name(c(), name) }

    /// Runs `action` on click (mouse, Enter/Space on focus, or an AT-SPI click).
    @discardableResult
    public func onClicked(_ action: @escaping @MainActor () -> Void) -> SignalConnection { onSignal("clicked", action) }

    /// Emits "clicked" as if the user activated the button.
    public func activate() { _ = gtk_widget_activate(widget) }
}

/// GtkToggleButton: a two-state control; its pressed state is exposed to AT-SPI.
@MainActor
public final class ToggleButton: Button {
    private var suppressToggled = false

    public override init(iconName: String, accessibleLabel: String) {
        super.init(existing: gtk_toggle_button_new())
        setIconName(iconName)
        setAccessibleLabel(accessibleLabel)
    }

    /// A toggle that shows a short text (an emoji where no icon exists) and is named for
    /// assistive technologies by `accessibleLabel`.
    public init(text: String, accessibleLabel: String) {
        super.init(existing: gtk_toggle_button_new_with_label(text))
        setAccessibleLabel(accessibleLabel)
    }

    /// A flat menu entry that stays pressed while its choice is the current one.
    public override init(iconName: String, label: String) {
        super.init(existing: gtk_toggle_button_new())
        makeMenuEntry(iconName: iconName, label: label)
    }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(c()) != 0 }
        set {
            guard newValue != isActive else { return }
            // Setting from the model must not look like a user's toggle.
            suppressToggled = true
            gtk_toggle_button_set_active(c(), newValue ? 1 : 0)
            suppressToggled = false
        }
    }

    /// Runs `action(newState)` only when the user toggles it.
    @discardableResult
    public func onToggled(_ action: @escaping @MainActor (Bool) -> Void) -> SignalConnection {
        onSignal("toggled") { [weak self] in
            guard let self, !self.suppressToggled else { return }
            action(self.isActive)
        }
    }
}

/// A thin line between groups of a menu.
@MainActor
public final class Separator: Widget {
    public init(vertical: Bool = false) {
        super.init(gtk_separator_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL))
    }
}

/// GtkSpinner: something is under way with no progress to show (waiting for a host).
@MainActor
public final class Spinner: Widget {
    public init() {
        super.init(gtk_spinner_new())
        gtk_spinner_start(c())
    }
}

/// GtkLevelBar showing a 0…1 value (the microphone meter).
@MainActor
public final class LevelBar: Widget {
    public init() {
        super.init(gtk_level_bar_new_for_interval(0, 1))
        gtk_level_bar_set_mode(c(), GTK_LEVEL_BAR_MODE_CONTINUOUS)
        // No low/high colour offsets: a speech meter is not a battery gauge.
        gtk_level_bar_remove_offset_value(c(), GTK_LEVEL_BAR_OFFSET_LOW)
        gtk_level_bar_remove_offset_value(c(), GTK_LEVEL_BAR_OFFSET_HIGH)
        gtk_level_bar_remove_offset_value(c(), GTK_LEVEL_BAR_OFFSET_FULL)
    }

    public var value: Double {
        get { gtk_level_bar_get_value(c()) }
        set { gtk_level_bar_set_value(c(), min(1, max(0, newValue))) }
    }
}

/// A symbolic icon.
@MainActor
public final class Image: Widget {
    public init(iconName: String, pixelSize: Int = 16) {
        super.init(gtk_image_new_from_icon_name(iconName))
        gtk_image_set_pixel_size(c(), gint(pixelSize))
    }
    public func setIconName(_ name: String) { gtk_image_set_from_icon_name(c(), name) }
}

/// AdwAvatar: the user's initials in a coloured circle.
@MainActor
public final class Avatar: Widget {
    public init(size: Int, name: String) {
        super.init(adw_avatar_new(gint(size), name, 1))
    }
    public var name: String {
        get { string(from: adw_avatar_get_text(c())) ?? "" }
        set { adw_avatar_set_text(c(), newValue) }
    }
}

/// GtkEntry for a single line of text.
@MainActor
public final class Entry: Widget {
    public init(placeholder: String) {
        super.init(gtk_entry_new())
        gtk_entry_set_placeholder_text(c(), placeholder)
    }

    init(built pointer: UnsafeMutablePointer<GtkWidget>) { super.init(pointer) }

    public var text: String {
        get { string(from: gtk_editable_get_text(c())) ?? "" }
        set { gtk_editable_set_text(c(), newValue) }
    }

    /// Runs `action` when the user presses Enter in the entry.
    @discardableResult
    public func onActivate(_ action: @escaping @MainActor () -> Void) -> SignalConnection { onSignal("activate", action) }
}

/// AdwComboRow over a list of strings: a labelled drop-down in a preferences group.
@MainActor
public final class ComboRow: Widget {
    private let model: OpaquePointer // GtkStringList, owned by the row
    private var suppressSelection = false

    public init(title: String) {
        model = gtk_string_list_new(nil)
        super.init(adw_combo_row_new())
        adw_preferences_row_set_title(c(), title)
        adw_combo_row_set_model(c(), model.c())
        g_object_unref(gpointer(model)) // the row holds the list now, for as long as we do
    }

    /// Replaces the choices and selects `selected` without reporting it as a user's choice.
    public func setItems(_ items: [String], selected: Int?) {
        suppressSelection = true
        defer { suppressSelection = false }
        let count = g_list_model_get_n_items(model.c())
        var cStrings = items.map { strdup($0) } + [nil]
        cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_string_list_splice(model, 0, count, $0)
            }
        }
        cStrings.forEach { free($0) }
        adw_combo_row_set_selected(c(), guint(selected.map { max(0, $0) } ?? Int(GTK_INVALID_LIST_POSITION)))
    }

    public var selectedIndex: Int? {
        let index = adw_combo_row_get_selected(c())
        return index == GTK_INVALID_LIST_POSITION ? nil : Int(index)
    }

    /// Runs `action(index)` when the user picks another entry.
    @discardableResult
    public func onSelectionChanged(_ action: @escaping @MainActor (Int) -> Void) -> SignalConnection {
        onPropertyChange("selected") { [weak self] in
            guard let self, !self.suppressSelection, let index = self.selectedIndex else { return }
            action(index)
        }
    }
}
