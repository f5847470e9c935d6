import ConfabCore
import GLibBridge
import GtkBridge

/// A small window of its own the router can show and take down (the incoming ring and the
/// minimized call; everything else is a page of the main window).
@MainActor
protocol ScreenWindow: AnyObject {
    var window: Window { get }
    func present()
    func close()
}

extension IncomingCallWindow: ScreenWindow {}
extension MinimizedCallWindow: ScreenWindow {}

/// The one place that maps `callingState` to what is on screen.
@MainActor
final class AppRouter {
    /// What is on screen; several calling states can share one screen.
    enum Screen: Equatable {
        case home
        case lobby(CallID)
        case outgoing(CallID)
        case incoming(CallID)
        case call(CallID)
        case minimized(CallID)
        case ended
    }

    /// Builds the main window, its pages, and the small windows.
    struct Factory {
        let mainWindow: @MainActor () -> MainWindow
        let home: @MainActor () -> MainWindowPage
        let lobby: @MainActor (LobbyInfo) -> MainWindowPage
        let outgoing: @MainActor () -> MainWindowPage
        let call: @MainActor (ActiveCall) -> MainWindowPage
        let ended: @MainActor (EndedCall) -> MainWindowPage
        let incoming: @MainActor (IncomingCall) -> ScreenWindow
        let minimized: @MainActor (ActiveCall) -> ScreenWindow
    }

    private let callViewModel: CallViewModel
    private let factory: Factory
    private var binding: ObservationBinding?
    private(set) var screen: Screen?
    /// The main window (hidden while a small window stands in for it), until the user closes it.
    private(set) var mainWindow: MainWindow?
    /// The ring or the minimized call, while one is shown.
    private(set) var smallWindow: ScreenWindow?
    /// A screen change frees a page (the lobby's, a call's pipelines at its end) and builds
    /// another: what the old one held goes back to the system once the new one has settled
    /// (a join's first frames come within a second or two).
    private let heap = HeapTrimmer(delay: 4)
    /// Joined from the lobby, the lobby stays until the call's media has signalled, or this
    /// long at most (a media server that does not answer): see `route`. The signalling takes
    /// 0.1 s here, up to ~0.5 s for a debug build's first call or a fourth to join on a
    /// saturated machine.
    static let lobbyWaitLimit = 1.0
    /// A join's wait in the lobby: nil when none, `waiting` (numbered, so a limit that runs out
    /// ends only its own wait), `over` once the limit ran out.
    private var lobbyWait: LobbyWait?
    private var lobbyWaitsSoFar = 0

    private enum LobbyWait: Equatable {
        case waiting(number: Int)
        case over
    }

    /// The window in front: a dialog (the share question, Shortcuts) goes over it.
    var frontWindow: Window? { smallWindow?.window ?? mainWindow?.window }
    /// The call page, while the call is shown in the main window.
    var callPage: CallPage? { mainWindow?.page as? CallPage }

    init(callViewModel: CallViewModel, factory: Factory) {
        self.callViewModel = callViewModel
        self.factory = factory
    }

    func start() {
        binding = ObservationBinding { [weak self] in
            guard let self else { return }
            // (Read here so a change re-routes: the lobby may be waiting for it.)
            _ = self.callViewModel.activeCall?.isMediaSignalled
            self.routeNow()
        }
    }

    /// Shows the current screen again: the window in front, or, after the user closed the main
    /// window (the app kept running in the background, still signed in), a new one.
    func showAgain() {
        if let frontWindow, frontWindow.isVisible { return frontWindow.present() }
        screen = nil
        routeNow()
    }

    /// Shows the screen for the call view model's state now.
    private func routeNow() {
        let vm = callViewModel
        route(vm.callingState, activeCall: vm.activeCall, isMinimized: vm.isMinimized, ended: vm.endedCall)
    }

    /// - Parameter waitsForMedia: a call joined from the lobby keeps the lobby on screen (see
    ///   `route`).
    static func screen(for state: CallingState, activeCall: CallID?, isMinimized: Bool = false, ended: EndedCall? = nil,
                       current: Screen?, waitsForMedia: Bool = false) -> Screen {
        switch state {
        case .idle:
            return ended == nil ? .home : .ended
        case .lobby(let info):
            return .lobby(CallID(type: info.callType, id: info.callId))
        case .incoming(let call):
            return .incoming(call.cid)
        case .outgoing:
            return activeCall.map(Screen.outgoing) ?? .home
        case .joining:
            // Joining from the lobby keeps the lobby up (its Join button says "Joining…").
            if case .lobby(let call)? = current, call == activeCall { return .lobby(call) }
            return activeCall.map(Screen.call) ?? .home
        case .inCall, .reconnecting:
            guard let activeCall else { return .home }
            if waitsForMedia, !isMinimized, case .lobby(let call)? = current, call == activeCall { return .lobby(call) }
            return isMinimized ? .minimized(activeCall) : .call(activeCall)
        }
    }

    private func route(_ state: CallingState, activeCall: ActiveCall?, isMinimized: Bool, ended: EndedCall?) {
        // Joined from the lobby, the call page waits until the media has signalled (our answer
        // to receive one of those already in made, or in an empty room our published offer
        // answered): its first layout and paint take the main thread for 50–110 ms here, and
        // every step of the signalling waits for the main thread. What is left once it has
        // signalled (ICE, DTLS, the first keyframe) needs none, so the page is laid out
        // meanwhile. bench-media, N = 2, alternating runs: the first picture 0.25 s after the
        // click instead of 0.29 (medians of 12 joins each). The lobby says "Joining…"
        // meanwhile, and its camera is let go at once for the call's.
        let waitsForMedia = lobbyWait != .over && activeCall.map { !$0.isMediaSignalled } ?? false
        let next = Self.screen(for: state, activeCall: activeCall?.id, isMinimized: isMinimized, ended: ended, current: screen,
                               waitsForMedia: waitsForMedia)
        if case .lobby = next, state == .inCall || state == .reconnecting { return waitForMedia() }
        // Not waiting (any more): the next join from a lobby waits afresh.
        lobbyWait = nil
        guard next != screen else { return }
        screen = next
        heap.changed()
        if case .incoming = next, case .incoming(let call) = state { return showSmall(factory.incoming(call)) }
        if case .minimized = next, let activeCall { return showSmall(factory.minimized(activeCall)) }
        switch (next, state) {
        case (.lobby, .lobby(let info)): showPage(factory.lobby(info))
        case (.outgoing, _): showPage(factory.outgoing())
        case (.call, _): showPage(activeCall.map(factory.call) ?? factory.home())
        case (.ended, _): showPage(ended.map(factory.ended) ?? factory.home())
        default: showPage(factory.home())
        }
    }

    /// The lobby stays while the call's media signals: its camera and microphone go to the call
    /// now, and the wait is over in `lobbyWaitLimit` if the media has not signalled by then.
    private func waitForMedia() {
        guard lobbyWait == nil else { return }
        lobbyWaitsSoFar += 1
        let wait = LobbyWait.waiting(number: lobbyWaitsSoFar)
        lobbyWait = wait
        mainWindow?.page?.releaseDevices()
        MainLoop.after(seconds: Self.lobbyWaitLimit) { [weak self] in
            guard let self, self.lobbyWait == wait else { return }
            self.lobbyWait = .over
            self.routeNow()
        }
    }

    /// A page of the main window; the small window, if any, goes.
    private func showPage(_ page: MainWindowPage) {
        let main = mainWindow ?? makeMainWindow()
        main.show(page)
        main.present()
        smallWindow?.close()
        smallWindow = nil
    }

    /// The ring or the minimized call in its own window; the main window hides meanwhile
    /// (shown first, so the app never has no window on screen: GtkApplication would quit).
    private func showSmall(_ small: ScreenWindow) {
        let previous = smallWindow
        smallWindow = small
        small.present()
        previous?.close()
        mainWindow?.hide()
    }

    private func makeMainWindow() -> MainWindow {
        let main = factory.mainWindow()
        main.onClosed = { [weak self, weak main] in
            guard let self, self.mainWindow === main else { return }
            self.mainWindow = nil
            self.screen = nil
        }
        mainWindow = main
        return main
    }
}
