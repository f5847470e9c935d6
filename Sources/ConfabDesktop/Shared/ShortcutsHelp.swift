import Foundation
import GLibBridge

/// The Shortcuts window (Ctrl+?), from Resources/shortcuts.ui.
@MainActor
enum ShortcutsHelp {
    static func present(over parent: Window?) {
        guard let path = ResourceLocator.path(of: "shortcuts.ui"),
              let xml = try? String(contentsOfFile: path, encoding: .utf8),
              let window = ShortcutsWindow(builderXML: xml, transientFor: parent) else { return }
        window.present()
        shown = window
    }

    /// Keeps the window alive while it is open.
    private static var shown: ShortcutsWindow?
}
