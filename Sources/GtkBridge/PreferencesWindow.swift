import CGLib
import CGtk
import CAdwaita
import GLibBridge

/// AdwPreferencesWindow: pages of preference groups, with its own close button.
@MainActor
public final class PreferencesWindow: Widget {
    public init(application: Application, title: String, width: Int, height: Int) {
        super.init(adw_preferences_window_new())
        gtk_window_set_application(c(), application.c())
        gtk_window_set_title(c(), title)
        gtk_window_set_default_size(c(), gint(width), gint(height))
        // Search filters rows by title; with a handful of rows it only hides things.
        adw_preferences_window_set_search_enabled(c(), 0)
    }

    public func add(_ page: PreferencesPage) { adw_preferences_window_add(c(), page.c()) }

    public func present() { gtk_window_present(c()) }
    public func close() { gtk_window_destroy(c()) }

    /// Runs `handler` when the user closes the window; the window then goes away.
    public func onClose(_ handler: @escaping @MainActor () -> Void) {
        let box = CallbackBox(handler)
        g_signal_connect_data(raw, "close-request", unsafeBitCast(preferencesCloseThunk, to: GCallback.self), box.retainedPointer(),
                              releaseVoidCallback, GConnectFlags(rawValue: 0))
    }
}

/// AdwPreferencesPage: one page (tab) of a preferences window.
@MainActor
public final class PreferencesPage: Widget {
    public init(title: String, iconName: String, groups: [PreferencesGroup]) {
        super.init(adw_preferences_page_new())
        adw_preferences_page_set_title(c(), title)
        adw_preferences_page_set_icon_name(c(), iconName)
        for group in groups { adw_preferences_page_add(c(), group.c()) }
    }
}

/// AdwActionRow: a title, an optional subtitle, and a control at its end.
@MainActor
public final class ActionRow: Widget {
    public init(title: String, subtitle: String? = nil, control: Widget? = nil) {
        super.init(adw_action_row_new())
        adw_preferences_row_set_title(c(), title)
        if let subtitle { adw_action_row_set_subtitle(c(), subtitle) }
        if let control {
            adw_action_row_add_suffix(c(), control.c())
            adw_action_row_set_activatable_widget(c(), control.c())
        }
    }
}

/// GtkSwitch: on or off, reported as the user flips it.
@MainActor
public final class Switch: Widget {
    private var suppressChange = false

    public init() {
        super.init(gtk_switch_new())
        align(vertical: .center)
    }

    /// Setting the value in code does not call `onChange`.
    public var isOn: Bool {
        get { gtk_switch_get_active(c()) != 0 }
        set {
            suppressChange = true
            gtk_switch_set_active(c(), newValue ? 1 : 0)
            suppressChange = false
        }
    }

    @discardableResult
    public func onChange(_ action: @escaping @MainActor (Bool) -> Void) -> SignalConnection {
        onPropertyChange("active") { [weak self] in
            guard let self, !self.suppressChange else { return }
            action(self.isOn)
        }
    }
}

/// A horizontal GtkScale between two values.
@MainActor
public final class Slider: Widget {
    private var suppressChange = false

    public init(from minimum: Double, to maximum: Double, step: Double) {
        super.init(gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, minimum, maximum, step))
        setSizeRequest(width: 200, height: -1)
        align(vertical: .center)
    }

    /// Setting the value in code does not call `onChange`.
    public var value: Double {
        get { gtk_range_get_value(c()) }
        set {
            suppressChange = true
            gtk_range_set_value(c(), newValue)
            suppressChange = false
        }
    }

    @discardableResult
    public func onChange(_ action: @escaping @MainActor (Double) -> Void) -> SignalConnection {
        onSignal("value-changed") { [weak self] in
            guard let self, !self.suppressChange else { return }
            action(self.value)
        }
    }
}

extension PreferencesGroup {
    /// A line of explanation under the group's title.
    public func setDescription(_ text: String) { adw_preferences_group_set_description(c(), text) }
}

extension Entry {
    /// Shows dots instead of the text (a token, a password).
    public var hidesText: Bool {
        get { gtk_entry_get_visibility(c()) == 0 }
        set { gtk_entry_set_visibility(c(), newValue ? 0 : 1) }
    }

    /// Runs `action` after every edit (typing, pasting, or an assistive technology setting the text).
    @discardableResult
    public func onChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection { onSignal("changed", action) }
}

/// "close-request" runs on the main thread; returning false lets the window close.
private let preferencesCloseThunk: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
    CallbackBox<@MainActor () -> Void>.borrow(data).call()
    return 0
}
