import ConfabProtocol
import Foundation

/// The runtime part of a call: who is in it from which connection, and the ring in progress.
/// Lost on restart by design — connections do not survive a restart either.
struct LiveSession: Sendable {
    struct Participant: Sendable {
        var participant: CallParticipant
        var connectionId: String
        /// The Janus room and this join's token; the token is revoked when the participant goes.
        var media: MediaEndpoint?
    }

    /// Keyed by session id.
    var participants: [String: Participant] = [:]
    var ring: RingState?
    var acceptedBy: [String: Date] = [:]
    var rejectedBy: [String: RejectReason] = [:]
    var missedBy: [String] = []
    /// Connections that fetched or joined the call and so receive its events (the lobby shows
    /// who is in a call without being a member).
    var watchers: Set<String> = []

    func participant(onConnection connectionId: String) -> Participant? {
        participants.values.first { $0.connectionId == connectionId }
    }

    func participants(ofUser userId: String) -> [Participant] {
        participants.values.filter { $0.participant.userId == userId }
    }

    var wireValue: CallSession {
        CallSession(
            participants: participants.values.map(\.participant).sorted { ($0.joinedAt, $0.sessionId) < ($1.joinedAt, $1.sessionId) },
            ringing: ring?.wireValue,
            acceptedBy: acceptedBy,
            rejectedBy: rejectedBy,
            missedBy: missedBy
        )
    }

    /// Forgets the previous ring's answers when a new ring starts.
    mutating func startRing(_ ring: RingState) {
        self.ring = ring
        acceptedBy = [:]
        rejectedBy = [:]
        missedBy = []
    }
}
