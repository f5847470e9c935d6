import ConfabCore
import GLibBridge
import GtkBridge

/// The ☰ main menu every page of the main window has at the end of its header bar.
@MainActor
enum MainMenu {
    static func button() -> Widget {
        let button = MenuModelButton(iconName: "open-menu-symbolic", accessibleLabel: tr("Main Menu"), sections: [
            [MenuItem(tr("_Preferences"), action: "app.\(AppShortcut.preferences.rawValue)"),
             MenuItem(tr("_Keyboard Shortcuts"), action: "app.\(AppShortcut.shortcuts.rawValue)"),
             MenuItem(tr("_About Confab"), action: "app.about")],
        ])
        button.makePrimary()
        return button
    }
}
