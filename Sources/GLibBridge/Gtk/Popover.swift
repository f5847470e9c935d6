import CGLib
import CGtk

/// A button that opens a popover with the given content (the layout menu, the tile menu).
@MainActor
public final class MenuButton: Widget {
    private let popover: UnsafeMutablePointer<GtkPopover>

    public init(iconName: String, accessibleLabel: String, content: Widget) {
        popover = gtk_popover_new().c()
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(c(), iconName)
        gtk_popover_set_child(popover, content.widget)
        gtk_menu_button_set_popover(c(), popover.c())
        setAccessibleLabel(accessibleLabel)
        tooltip = accessibleLabel
    }

    public func popup() { gtk_menu_button_popup(c()) }
    public func popdown() { gtk_menu_button_popdown(c()) }
}
