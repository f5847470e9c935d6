import GLibBridge
import GtkBridge

/// The Shortcuts window (Ctrl+?), written from `AppShortcut`'s table.
@MainActor
enum ShortcutsHelp {
    static func present(over parent: Window?) {
        guard let window = ShortcutsWindow(builderXML: AppShortcut.shortcutsWindowXML, transientFor: parent) else { return }
        window.present()
        shown = window
    }

    /// Keeps the window alive while it is open.
    private static var shown: ShortcutsWindow?
}
