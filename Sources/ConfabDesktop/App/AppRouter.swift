import ConfabCore
import GLibBridge

/// A top-level window the router can show and take down.
@MainActor
protocol ScreenWindow: AnyObject {
    func present()
    func close()
}

/// A screen with one GTK window (dialogs such as the Shortcuts window attach to it).
@MainActor
protocol WindowOwner: AnyObject {
    var window: Window { get }
}

extension HomeWindow: ScreenWindow, WindowOwner {}
extension LobbyWindow: ScreenWindow, WindowOwner {}
extension OutgoingCallWindow: ScreenWindow, WindowOwner {}
extension IncomingCallWindow: ScreenWindow, WindowOwner {}
extension InCallWindow: ScreenWindow, WindowOwner {}
extension MinimizedCallWindow: ScreenWindow, WindowOwner {}
extension CallEndedWindow: ScreenWindow, WindowOwner {}

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

    /// Builds the window for a screen.
    struct Factory {
        let home: @MainActor () -> ScreenWindow
        let lobby: @MainActor (LobbyInfo) -> ScreenWindow
        let outgoing: @MainActor () -> ScreenWindow
        let incoming: @MainActor (IncomingCall) -> ScreenWindow
        let call: @MainActor (ActiveCall) -> ScreenWindow
        let minimized: @MainActor (ActiveCall) -> ScreenWindow
        let ended: @MainActor (EndedCall) -> ScreenWindow
    }

    private let callViewModel: CallViewModel
    private let factory: Factory
    private var binding: ObservationBinding?
    private(set) var screen: Screen?
    private(set) var window: ScreenWindow?

    init(callViewModel: CallViewModel, factory: Factory) {
        self.callViewModel = callViewModel
        self.factory = factory
    }

    func start() {
        binding = ObservationBinding { [weak self] in
            guard let self else { return }
            let vm = self.callViewModel
            self.route(vm.callingState, activeCall: vm.activeCall, isMinimized: vm.isMinimized, ended: vm.endedCall)
        }
    }

    /// Shows the current screen again after the user closed its window (the app kept running in
    /// the background, still signed in).
    func reopen() {
        screen = nil
        route(callViewModel.callingState, activeCall: callViewModel.activeCall, isMinimized: callViewModel.isMinimized,
              ended: callViewModel.endedCall)
    }

    static func screen(for state: CallingState, activeCall: CallID?, isMinimized: Bool = false, ended: EndedCall? = nil,
                       current: Screen?) -> Screen {
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
            return isMinimized ? .minimized(activeCall) : .call(activeCall)
        }
    }

    private func route(_ state: CallingState, activeCall: ActiveCall?, isMinimized: Bool, ended: EndedCall?) {
        let next = Self.screen(for: state, activeCall: activeCall?.id, isMinimized: isMinimized, ended: ended, current: screen)
        guard next != screen else { return }
        let previous = window
        let newWindow: ScreenWindow
        switch (next, state) {
        case (.lobby, .lobby(let info)): newWindow = factory.lobby(info)
        case (.incoming, .incoming(let call)): newWindow = factory.incoming(call)
        case (.outgoing, _): newWindow = factory.outgoing()
        case (.call, _): newWindow = activeCall.map(factory.call) ?? factory.home()
        case (.minimized, _): newWindow = activeCall.map(factory.minimized) ?? factory.home()
        case (.ended, _): newWindow = ended.map(factory.ended) ?? factory.home()
        default: newWindow = factory.home()
        }
        // Present the new window before closing the old one: with no window at all for a
        // moment, GtkApplication would quit.
        window = newWindow
        screen = next
        newWindow.present()
        previous?.close()
    }
}
