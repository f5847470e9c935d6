import CGLib
import CGtk
import GLibBridge

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

    /// Opens the popover above the button (a control bar at the bottom of a window: below it,
    /// the popover would hang out of the window).
    public func opensUpward() { gtk_menu_button_set_direction(c(), GTK_ARROW_UP) }
}

/// One entry of a menu: its label and the action it activates ("app.preferences").
public struct MenuItem: Sendable {
    public let label: String
    public let action: String

    public init(_ label: String, action: String) {
        self.label = label
        self.action = action
    }
}

/// A button that opens a menu of actions (the ☰ main menu, More): GTK builds the popover from
/// a GMenu, so it looks and reads like every other GNOME menu and closes after a pick.
@MainActor
public final class MenuModelButton: Widget {
    /// `sections` are shown with separators between them.
    public init(iconName: String, accessibleLabel: String, sections: [[MenuItem]]) {
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(c(), iconName)
        let menu = g_menu_new()!
        for section in sections {
            let part = g_menu_new()!
            for item in section { g_menu_append(part, item.label, item.action) }
            g_menu_append_section(menu, nil, UnsafeMutableRawPointer(part).assumingMemoryBound(to: GMenuModel.self))
            g_object_unref(gpointer(part))
        }
        gtk_menu_button_set_menu_model(c(), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(gpointer(menu))
        setAccessibleLabel(accessibleLabel)
        tooltip = accessibleLabel
    }

    /// Makes it the window's primary menu (F10 opens it), as GNOME's ☰ menus are.
    public func makePrimary() { gtk_menu_button_set_primary(c(), 1) }

    public func popup() { gtk_menu_button_popup(c()) }
}

extension Button {
    /// Runs `action` when clicked, after closing the popover the button sits in (an item of a
    /// menu-like popover). The popover is found from the clicked widget itself, so the handler
    /// holds no reference to the menu button and makes no cycle with it.
    @discardableResult
    public func onClickedClosingPopover(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        let box = CallbackBox(action)
        let thunk: @convention(c) (gpointer?, gpointer?) -> Void = { instance, data in
            if let instance, let popover = gtk_widget_get_ancestor(instance.assumingMemoryBound(to: GtkWidget.self), gtk_popover_get_type()) {
                gtk_popover_popdown(UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkPopover.self))
            }
            CallbackBox<@MainActor () -> Void>.borrow(data).call()
        }
        let id = g_signal_connect_data(raw, "clicked", unsafeBitCast(thunk, to: GCallback.self), box.retainedPointer(),
                                       releaseVoidCallback, GConnectFlags(rawValue: 0))
        return SignalConnection(object: self, handlerID: id)
    }
}
