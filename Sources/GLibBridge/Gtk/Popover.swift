import CGLib
import CGtk

/// A button that opens a popover with the given content (the layout menu, the tile menu).
@MainActor
public final class MenuButton: Widget {
    private let popover: Widget

    public init(iconName: String, accessibleLabel: String, content: Widget) {
        popover = Widget(gtk_popover_new())
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(c(), iconName)
        gtk_popover_set_child(popover.c(), content.widget)
        gtk_menu_button_set_popover(c(), popover.widget)
        setAccessibleLabel(accessibleLabel)
        tooltip = accessibleLabel
    }

    /// Runs `body` each time the popover opens (to show what is current then).
    @discardableResult
    public func onOpen(_ body: @escaping @MainActor () -> Void) -> SignalConnection { popover.onSignal("show", body) }

    public func popup() { gtk_menu_button_popup(c()) }
    public func popdown() { gtk_menu_button_popdown(c()) }
}
