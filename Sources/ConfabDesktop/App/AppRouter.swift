import ConfabCore
import GLibBridge

/// The one place that maps `callingState` to what is on screen.
@MainActor
final class AppRouter {
    /// What is on screen; several calling states can share one screen.
    enum Screen: Equatable {
        case home
        case lobby(cid: String)
    }

    private let callViewModel: CallViewModel
    private let makeHome: @MainActor () -> HomeWindow
    private let makeLobby: @MainActor (LobbyInfo) -> LobbyWindow
    private var binding: ObservationBinding?
    private(set) var screen: Screen?
    private var home: HomeWindow?
    private(set) var lobby: LobbyWindow?

    init(callViewModel: CallViewModel, makeHome: @escaping @MainActor () -> HomeWindow,
         makeLobby: @escaping @MainActor (LobbyInfo) -> LobbyWindow) {
        self.callViewModel = callViewModel
        self.makeHome = makeHome
        self.makeLobby = makeLobby
    }

    func start() {
        binding = ObservationBinding { [weak self] in
            guard let self else { return }
            self.route(self.callViewModel.callingState)
        }
    }

    static func screen(for state: CallingState, current: Screen?) -> Screen {
        switch state {
        case .idle: return .home
        case .lobby(let info): return .lobby(cid: info.cid)
        // Joining from the lobby keeps the lobby up (with "Joining…") until the call window exists.
        case .joining: if case .lobby = current { return current! } else { return .home }
        // The ringing and in-call windows are not built yet; the home screen stays up meanwhile.
        case .incoming, .outgoing, .inCall, .reconnecting: return current ?? .home
        }
    }

    private func route(_ state: CallingState) {
        let next = Self.screen(for: state, current: screen)
        guard next != screen else { return }
        let previousHome = home, previousLobby = lobby
        home = nil
        lobby = nil
        // Present the new window before closing the old one: with no window at all for a
        // moment, GtkApplication would quit.
        switch (next, state) {
        case (.home, _):
            let window = makeHome()
            home = window
            window.present()
        case (.lobby, .lobby(let info)):
            let window = makeLobby(info)
            lobby = window
            window.present()
        default:
            break
        }
        previousHome?.close()
        previousLobby?.close()
        screen = next
    }
}
