import ConfabClient
import ConfabCore

/// The coordinator client as the call view model sees it, when the peer sends media.
///
/// The peer keeps its own event handler on the client (its report sees every event, rings
/// included); this passes events on to the view model only once the peer has handed it a call
/// to join, so the view model's ring rules (busy, timeout) never answer a ring the peer's
/// command is meant to answer. Joins go through here too, so the report records every join the
/// view model makes, including its rejoin after a reconnect.
@MainActor
final class PeerCallService: CallService {
    private let client: CoordinatorClient
    private var viewModelHandler: (@MainActor (CallServiceEvent) -> Void)?
    /// Set once the view model joins a call: from then on it sees the coordinator's events.
    var forwardsEvents = false
    /// The next join creates the call when missing (`join --create`).
    var joinCreatesCall = false
    /// Each join's answer, before the view model acts on it.
    var onJoined: (@MainActor (CallSnapshot) -> Void)?
    /// Joins as the peer does (knocking and waiting for a host when the call asks to join);
    /// set by the `PeerSession`. Without it, a plain join.
    var knockingJoin: (@MainActor (CallID, _ create: Bool) async throws -> CallSnapshot)?
    /// Why the last join failed, in the coordinator's words.
    private(set) var lastJoinError: (any Error)?

    init(client: CoordinatorClient) {
        self.client = client
    }

    var currentUserID: String { client.currentUserID }

    func setEventHandler(_ handler: @escaping @MainActor (CallServiceEvent) -> Void) {
        viewModelHandler = handler
    }

    /// An event the peer received from the client.
    func deliver(_ event: CallServiceEvent) {
        guard forwardsEvents else { return }
        viewModelHandler?(event)
    }

    func joinCall(_ call: CallID, settings: CallSettings) async throws -> CallSnapshot {
        lastJoinError = nil
        client.joinsWith(OwnMediaState(settings), in: call)
        do {
            let snapshot: CallSnapshot
            if let knockingJoin {
                snapshot = try await knockingJoin(call, joinCreatesCall)
            } else {
                snapshot = try await client.joinCall(call, create: joinCreatesCall)
            }
            onJoined?(snapshot)
            return snapshot
        } catch {
            lastJoinError = error
            throw error
        }
    }

    func getOrCreateCall(_ call: CallID, memberIDs: [String], ring: Bool, video: Bool) async throws -> CallSnapshot {
        try await client.getOrCreateCall(call, memberIDs: memberIDs, ring: ring, video: video)
    }

    func getCall(_ call: CallID) async throws -> CallSnapshot { try await client.getCall(call) }
    func leaveCall(_ call: CallID) async throws { try await client.leaveCall(call) }
    func renewMedia(in call: CallID) async throws -> CallSnapshot { try await client.renewMedia(in: call) }
    func acceptCall(_ call: CallID) async throws { try await client.acceptCall(call) }
    func rejectCall(_ call: CallID, reason: RejectionReason) async throws { try await client.rejectCall(call, reason: reason) }
    func endCall(_ call: CallID) async throws { try await client.endCall(call) }

    // Host actions pass straight through (the peer has no panel to offer them from).
    func muteUser(_ userID: String, in call: CallID) async throws { try await client.muteUser(userID, in: call) }
    func blockUser(_ userID: String, in call: CallID) async throws { try await client.blockUser(userID, in: call) }
    func unblockUser(_ userID: String, in call: CallID) async throws { try await client.unblockUser(userID, in: call) }
    func kickUser(_ userID: String, in call: CallID) async throws { try await client.kickUser(userID, in: call) }
    func setRole(_ role: CallRole, of userID: String, in call: CallID) async throws { try await client.setRole(role, of: userID, in: call) }
    func pinForEveryone(_ participant: CallParticipant, in call: CallID) async throws { try await client.pinForEveryone(participant, in: call) }
    func unpinForEveryone(_ participant: CallParticipant, in call: CallID) async throws { try await client.unpinForEveryone(participant, in: call) }
    func startRecording(in call: CallID) async throws { try await client.startRecording(in: call) }
    func stopRecording(in call: CallID) async throws { try await client.stopRecording(in: call) }
    func goLive(in call: CallID) async throws { try await client.goLive(in: call) }
    func stopLive(in call: CallID) async throws { try await client.stopLive(in: call) }
    func startBroadcasting(in call: CallID) async throws { try await client.startBroadcasting(in: call) }
    func stopBroadcasting(in call: CallID) async throws { try await client.stopBroadcasting(in: call) }
    func updateVideoViews(_ views: [String: VideoSize], in call: CallID) async throws { try await client.updateVideoViews(views, in: call) }
    func setMediaState(_ state: OwnMediaState, in call: CallID) async throws { try await client.setMediaState(state, in: call) }
}
