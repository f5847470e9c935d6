import ConfabCore
import GLibBridge
import GtkBridge

/// Every keyboard shortcut of the app in one table. The global ones are application actions
/// with accelerators, so they work in whichever Confab window is in front (lobby, call,
/// minimized call, participants); the Shortcuts window is written from the same table, so it
/// lists exactly what works. Keys that only make sense on one screen (Enter to join or accept,
/// Escape to leave a screen, holding Space to talk) stay with that screen and are listed here
/// as `ScreenKey`s.
enum AppShortcut: String, CaseIterable {
    case toggleMicrophone = "toggle-microphone"
    case toggleCamera = "toggle-camera"
    case shareScreen = "share-screen"
    case hangUp = "hang-up"
    case nextLayout = "next-layout"
    case participants
    case raiseHand = "raise-hand"
    case toggleMinimized = "toggle-minimized"
    case fullScreen = "full-screen"
    case shortcuts
    case preferences
    case quit

    /// GTK's accelerator syntax.
    var accelerator: String {
        switch self {
        case .toggleMicrophone: "<Control>d"
        case .toggleCamera: "<Control>e"
        case .shareScreen: "<Control><Shift>e"
        case .hangUp: "<Control><Shift>h"
        case .nextLayout: "<Control>l"
        case .participants: "<Control>p"
        case .raiseHand: "<Control>h"
        case .toggleMinimized: "<Control>m"
        case .fullScreen: "F11"
        case .shortcuts: "<Control>question"
        case .preferences: "<Control>comma"
        case .quit: "<Control>q"
        }
    }

    var title: String {
        switch self {
        case .toggleMicrophone: tr("Turn the microphone on or off")
        case .toggleCamera: tr("Turn the camera on or off")
        case .shareScreen: tr("Share your screen, or stop sharing")
        case .hangUp: tr("Hang up")
        case .nextLayout: tr("Next layout (grid, spotlight, full screen)")
        case .participants: tr("Show or hide the participants and chat")
        case .raiseHand: tr("Raise or lower your hand")
        case .toggleMinimized: tr("Minimize or restore the call")
        case .fullScreen: tr("Full screen")
        case .shortcuts: tr("Keyboard shortcuts")
        case .preferences: tr("Preferences")
        case .quit: tr("Quit")
        }
    }

    var group: ShortcutGroup {
        switch self {
        case .toggleMicrophone, .toggleCamera, .shareScreen: .media
        case .hangUp: .calls
        case .nextLayout, .participants, .raiseHand, .toggleMinimized, .fullScreen: .callWindow
        case .shortcuts, .preferences, .quit: .app
        }
    }
}

/// A key handled by one screen only.
struct ScreenKey {
    let accelerator: String
    let title: String
    let group: ShortcutGroup

    static let all = [
        ScreenKey(accelerator: "space", title: tr("Hold to talk while muted"), group: .media),
        ScreenKey(accelerator: "Return", title: tr("Join the call (lobby)"), group: .calls),
        ScreenKey(accelerator: "Return", title: tr("Accept an incoming call"), group: .calls),
        ScreenKey(accelerator: "Escape", title: tr("Decline an incoming call / cancel ringing / leave the lobby"), group: .calls),
    ]
}

enum ShortcutGroup: CaseIterable {
    case media, calls, callWindow, app

    var title: String {
        switch self {
        case .media: tr("Microphone and camera")
        case .calls: tr("Calls")
        case .callWindow: tr("Call window")
        case .app: "Confab"
        }
    }
}

extension AppShortcut {
    /// GtkBuilder XML for the Shortcuts window, from the table above.
    static var shortcutsWindowXML: String {
        func escape(_ text: String) -> String {
            text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
                .replacing(">", with: "&gt;")
        }
        func entry(_ title: String, _ accelerator: String) -> String {
            #"<child><object class="GtkShortcutsShortcut"><property name="title">\#(escape(title))</property>"#
                + #"<property name="accelerator">\#(escape(accelerator))</property></object></child>"#
        }
        let groups = ShortcutGroup.allCases.map { group in
            let entries = allCases.filter { $0.group == group }.map { entry($0.title, $0.accelerator) }
                + ScreenKey.all.filter { $0.group == group }.map { entry($0.title, $0.accelerator) }
            return #"<child><object class="GtkShortcutsGroup"><property name="title">\#(escape(group.title))</property>"#
                + entries.joined() + "</object></child>"
        }
        return #"<?xml version="1.0" encoding="UTF-8"?><interface><object class="GtkShortcutsWindow" id="shortcuts">"#
            + #"<property name="modal">1</property><child><object class="GtkShortcutsSection">"#
            + #"<property name="section-name">confab</property>"# + groups.joined()
            + "</object></child></object></interface>"
    }
}
