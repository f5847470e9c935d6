import ConfabProtocol
import Foundation

/// The live sessions of calls in use: participants (one per joined device) and watchers.
///
/// Owned by the `CallCoordinator`. A session starts when someone fetches, joins or rings a call
/// and goes when the call ends or nobody uses it any more (`CallCoordinator.evictIfIdle`).
struct SessionRegistry {
    private var sessions: [CallID: LiveSession] = [:]

    var count: Int { sessions.count }
    var callsWithParticipants: Int { sessions.values.count { !$0.participants.isEmpty } }
    var participantCount: Int { sessions.values.reduce(0) { $0 + $1.participants.count } }
    var callIDs: [CallID] { Array(sessions.keys) }

    subscript(cid: CallID) -> LiveSession? { sessions[cid] }

    /// Starts an empty session if the call has none (a ring needs one to report to).
    mutating func open(_ cid: CallID) {
        if sessions[cid] == nil { sessions[cid] = LiveSession() }
    }

    /// The connection hears the call's events from now on.
    mutating func watch(_ cid: CallID, from connectionId: String) {
        sessions[cid, default: LiveSession()].watchers.insert(connectionId)
    }

    /// True when the connection was watching the call.
    mutating func stopWatching(_ cid: CallID, from connectionId: String) -> Bool {
        sessions[cid]?.watchers.remove(connectionId) != nil
    }

    mutating func add(_ entry: LiveSession.Participant, to cid: CallID) {
        sessions[cid, default: LiveSession()].participants[entry.participant.sessionId] = entry
    }

    mutating func remove(session sessionId: String, from cid: CallID) {
        sessions[cid]?.participants[sessionId] = nil
    }

    /// Gives a participant a new media endpoint; returns the old one.
    mutating func replaceMedia(of sessionId: String, in cid: CallID, with endpoint: MediaEndpoint) -> MediaEndpoint? {
        let old = sessions[cid]?.participants[sessionId]?.media
        sessions[cid]?.participants[sessionId]?.media = endpoint
        return old
    }

    mutating func setPinned(_ pinnedAt: Date?, session sessionId: String, in cid: CallID) {
        sessions[cid]?.participants[sessionId]?.participant.pinnedAt = pinnedAt
    }

    /// Raises the participant's hand, after every hand raised before in this session; returns
    /// the hand (the one already raised, unchanged, if it was up), nil when there is no such participant.
    mutating func raiseHand(session sessionId: String, in cid: CallID, at now: Date) -> RaisedHand? {
        guard let entry = sessions[cid]?.participants[sessionId] else { return nil }
        if let raised = entry.participant.raisedHand { return raised }
        let order = sessions[cid]?.nextHandOrder ?? 1
        sessions[cid]?.nextHandOrder = order + 1
        let hand = RaisedHand(raisedAt: now, order: order)
        sessions[cid]?.participants[sessionId]?.participant.raisedHand = hand
        return hand
    }

    mutating func lowerHand(session sessionId: String, in cid: CallID) {
        sessions[cid]?.participants[sessionId]?.participant.raisedHand = nil
    }

    /// Everyone out at once (the call ended); the watchers stay until `end`.
    mutating func removeEveryParticipant(of cid: CallID) {
        sessions[cid]?.participants = [:]
    }

    /// The session is over: its watchers stop hearing about the call.
    mutating func end(_ cid: CallID) {
        sessions[cid] = nil
    }

    /// True when the call has no session or nobody in or following it.
    func isIdle(_ cid: CallID) -> Bool {
        sessions[cid]?.isIdle ?? true
    }

    /// In the session of some other call, on any device.
    func isBusy(_ userId: String, outside cid: CallID) -> Bool {
        sessions.contains { otherCid, session in
            otherCid != cid && !session.participants(ofUser: userId).isEmpty
        }
    }
}
