import GLibBridge
import GtkBridge

/// The app's one main window. Home, lobby, outgoing ring, call and call-ended are its pages,
/// so it keeps its size and place from step to step (GNOME apps don't open a new window per
/// state); only the incoming ring and the minimized call are small windows of their own.
/// Its size, and whether it is maximized, are remembered for the next start.
@MainActor
final class MainWindow {
    let window: Window
    /// The page on screen.
    private(set) var page: MainWindowPage?
    private let stack = Stack(animated: false)
    /// Told when the user closed the window (it is destroyed; the router builds a new one when
    /// the app is shown again).
    var onClosed: (@MainActor () -> Void)?
    private let rememberSize: @MainActor (_ width: Int, _ height: Int, _ maximized: Bool) -> Void

    init(application: Application, size: (width: Int, height: Int), maximized: Bool,
         rememberSize: @escaping @MainActor (_ width: Int, _ height: Int, _ maximized: Bool) -> Void) {
        self.rememberSize = rememberSize
        window = Window(application: application, title: "Confab", width: size.width, height: size.height)
        // Asked before the window is first shown, so it opens maximized rather than growing.
        if maximized { window.maximize() }
        // Narrow enough for a phone-sized window; each page scrolls or reflows below its width.
        window.setSizeRequest(width: 360, height: 480)
        window.setContent(stack)
        window.onCloseRequest { [weak self] in
            guard let self else { return false }
            if self.page?.closeRequested() == true { return true }
            self.rememberCurrentSize()
            self.page?.close()
            self.page = nil
            self.onClosed?()
            return false
        }
    }

    /// Replaces the page on screen with `next` (the old page is closed first, so it can't keep
    /// a device or a watch running behind the new one).
    func show(_ next: MainWindowPage) {
        let previous = page
        previous?.close()
        window.forgetDefaultAndFocus()
        page = next
        stack.addPage(next.content, name: "page-\(ObjectIdentifier(next).hashValue)")
        stack.visiblePageName = "page-\(ObjectIdentifier(next).hashValue)"
        if let previous { stack.removePage(previous.content) }
        window.title = next.title
        if let widget = next.defaultWidget { window.setDefaultWidget(widget) }
        next.shown(in: window)
    }

    /// Updates the title after the page's subject changed (a call got its name).
    func refreshTitle() {
        if let page { window.title = page.title }
    }

    func present() { window.present() }

    /// Hides the window while a small window (ring, minimized call) stands in for it; it comes
    /// back at the same size and place. The page goes: nothing runs for a hidden window.
    func hide() {
        rememberCurrentSize()
        page?.close()
        window.forgetDefaultAndFocus()
        if let page { stack.removePage(page.content) }
        page = nil
        window.hide()
    }

    var isVisible: Bool { window.isVisible }

    /// Remembers the size, and whether the window is maximized, for the next start (called
    /// when hidden or closed, and at quit).
    func rememberCurrentSize() {
        let size = window.defaultSize
        rememberSize(size.width, size.height, window.isMaximized)
    }
}
