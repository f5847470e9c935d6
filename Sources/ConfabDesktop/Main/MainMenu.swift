import GLibBridge

/// The ☰ main menu every page of the main window has at the end of its header bar.
@MainActor
enum MainMenu {
    static func button() -> Widget {
        let button = MenuModelButton(iconName: "open-menu-symbolic", accessibleLabel: "Main Menu", sections: [
            [MenuItem("_Preferences", action: "app.\(AppShortcut.preferences.rawValue)"),
             MenuItem("_Keyboard Shortcuts", action: "app.\(AppShortcut.shortcuts.rawValue)"),
             MenuItem("_About Confab", action: "app.about")],
        ])
        button.makePrimary()
        return button
    }
}
