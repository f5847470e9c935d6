import GLibBridge
import GtkBridge

/// A page of the main window: home, lobby, outgoing ring, call, call ended. Each brings its
/// own header bar and content; it is built when the router shows it and closed when the window
/// moves on, so what it runs (a camera preview, frame watches, timers) lives exactly as long.
@MainActor
protocol MainWindowPage: AnyObject {
    /// The window's title while the page is shown ("standup – Confab", "Call with Bob – Confab").
    var title: String { get }
    /// The whole page, header bar included.
    var content: Widget { get }
    /// What Enter activates when the focused control doesn't take the key.
    var defaultWidget: Widget? { get }
    /// The page is on screen in `window` (start media, focus the first control).
    func shown(in window: Window)
    /// Stops whatever the page runs; the window takes it out next.
    func close()
    /// The page stays on screen a moment longer while a call starts: its camera and microphone,
    /// if it has any, go to the call now.
    func releaseDevices()
    /// The window's close button was pressed while the page is shown. True keeps the window
    /// open (the page did something else, e.g. the call minimized itself).
    func closeRequested() -> Bool
}

extension MainWindowPage {
    var defaultWidget: Widget? { nil }
    func shown(in window: Window) {}
    func closeRequested() -> Bool { false }
    func releaseDevices() {}
}
