import Observation

/// The app's call state: what screen to show (`callingState`), the user's media choices
/// (`callSettings`) and the actions that move between them. Every window reads this.
@Observable
@MainActor
public final class CallViewModel {
    /// The single source of truth for routing: one screen per state.
    public var callingState: CallingState = .idle
    /// Mic/camera/speaker choices; in the lobby the toggles edit only this.
    public private(set) var callSettings: CallSettings
    /// The latest message for the user, if any.
    public private(set) var toast: Toast?
    public let currentUser: User

    @ObservationIgnored private let callService: CallService?
    @ObservationIgnored private var toastCounter = 0

    public init(currentUser: User, callSettings: CallSettings = .default, callService: CallService? = nil) {
        self.currentUser = currentUser
        self.callSettings = callSettings
        self.callService = callService
    }

    // MARK: Lobby

    /// Opens the lobby of a call so the user can check their devices before joining.
    public func enterLobby(callType: String, callId: String, members: [Member]) {
        callingState = .lobby(LobbyInfo(callId: callId, callType: callType, participants: members))
    }

    /// Leaves the lobby without joining.
    public func closeLobby() {
        guard case .lobby = callingState else { return }
        callingState = .idle
    }

    /// Joins the call the lobby is for, carrying the lobby's settings into it.
    public func joinCall(callType: String, callId: String) async {
        guard let callService else {
            show(CallError.notConnected.message)
            return
        }
        let previous = callingState
        callingState = .joining
        do {
            _ = try await callService.joinCall(CallID(type: callType, id: callId), settings: callSettings)
            callingState = .inCall
        } catch {
            callingState = previous
            show("Couldn’t join the call: \(error)")
        }
    }

    // MARK: Media toggles (in the lobby they edit callSettings only)

    public func toggleMicrophoneEnabled() { callSettings = callSettings.withUpdatedAudioState(!callSettings.audioOn) }
    public func toggleCameraEnabled() { callSettings = callSettings.withUpdatedVideoState(!callSettings.videoOn) }
    public func toggleSpeaker() { callSettings = callSettings.withUpdatedSpeakerState(!callSettings.speakerOn) }
    public func selectCamera(id: String?) { callSettings = callSettings.withUpdatedCamera(id) }

    // MARK: Messages

    public func show(_ message: String) {
        toastCounter += 1
        toast = Toast(id: toastCounter, message: message)
    }
}
