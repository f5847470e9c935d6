import ConfabProtocol
import Foundation

/// The runtime part of one call: who is in it from which connection, and which connections
/// follow its events. Lost on restart by design — connections do not survive a restart either.
/// The ring in progress is the `RingRegistry`'s.
struct LiveSession: Sendable {
    struct Participant: Sendable {
        var participant: CallParticipant
        var connectionId: String
        /// The Janus room and this join's token; the token is revoked when the participant goes.
        var media: MediaEndpoint?
        /// The replica the device is connected to, when not this one (a copy kept so that the
        /// call's state and busy checks are the same on every replica; see `ReplicaEvent`).
        var origin: String?
    }

    /// Keyed by session id.
    var participants: [String: Participant] = [:]
    /// Connections that fetched or joined the call and so receive its events (the lobby shows
    /// who is in a call before joining it).
    var watchers: Set<String> = []
    /// The raising order the next raised hand gets (1, 2, …; never reused in a session).
    var nextHandOrder = 1

    /// Nobody in it and nobody following it: the session may go.
    var isIdle: Bool { participants.isEmpty && watchers.isEmpty }

    func participant(onConnection connectionId: String) -> Participant? {
        participants.values.first { $0.connectionId == connectionId }
    }

    func participants(ofUser userId: String) -> [Participant] {
        participants.values.filter { $0.participant.userId == userId }
    }

    /// The participants as clients see them, oldest first.
    var wireParticipants: [CallParticipant] {
        participants.values.map(\.participant).sorted { ($0.joinedAt, $0.sessionId) < ($1.joinedAt, $1.sessionId) }
    }
}
