import ConfabProtocol
import Foundation

/// The live sessions of calls in use: participants (one per joined device) and watchers.
///
/// Owned by the `CallCoordinator`. A session starts when someone fetches, joins or rings a call
/// and goes when the call ends or nobody uses it any more (`CallCoordinator.evictIfIdle`).
struct SessionRegistry {
    private var sessions: [CallID: LiveSession] = [:]
    /// Participants added, changed or removed since `takeChanges` (session ids per call): what
    /// the other replicas are told after each request.
    private var changed: [CallID: Set<String>] = [:]

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
        changed[cid, default: []].insert(entry.participant.sessionId)
    }

    mutating func remove(session sessionId: String, from cid: CallID) {
        sessions[cid]?.participants[sessionId] = nil
        changed[cid, default: []].insert(sessionId)
    }

    /// Gives a participant a new media endpoint; returns the old one.
    mutating func replaceMedia(of sessionId: String, in cid: CallID, with endpoint: MediaEndpoint) -> MediaEndpoint? {
        let old = sessions[cid]?.participants[sessionId]?.media
        sessions[cid]?.participants[sessionId]?.media = endpoint
        return old
    }

    mutating func setPinned(_ pinnedAt: Date?, session sessionId: String, in cid: CallID) {
        sessions[cid]?.participants[sessionId]?.participant.pinnedAt = pinnedAt
        changed[cid, default: []].insert(sessionId)
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
        changed[cid, default: []].insert(sessionId)
        return hand
    }

    mutating func lowerHand(session sessionId: String, in cid: CallID) {
        sessions[cid]?.participants[sessionId]?.participant.raisedHand = nil
        changed[cid, default: []].insert(sessionId)
    }

    /// Whether the participant's microphone and camera are on, as its device said.
    mutating func setMediaState(microphoneOn: Bool?, cameraOn: Bool?, session sessionId: String, in cid: CallID) {
        sessions[cid]?.participants[sessionId]?.participant.microphoneOn = microphoneOn
        sessions[cid]?.participants[sessionId]?.participant.cameraOn = cameraOn
        changed[cid, default: []].insert(sessionId)
    }

    /// Everyone out at once (the call ended); the watchers stay until `end`.
    mutating func removeEveryParticipant(of cid: CallID) {
        changed[cid, default: []].formUnion(sessions[cid]?.participants.keys.map { $0 } ?? [])
        sessions[cid]?.participants = [:]
    }

    /// The session is over: its watchers stop hearing about the call.
    mutating func end(_ cid: CallID) {
        sessions[cid] = nil
    }

    /// What changed since the last call, per call: the participants as they are now, and the
    /// session ids of those who left.
    mutating func takeChanges() -> [(cid: CallID, present: [CallParticipant], gone: [String])] {
        defer { changed = [:] }
        return changed.keys.sorted { $0.description < $1.description }.map { cid in
            let ids = changed[cid] ?? []
            let present = ids.compactMap { sessions[cid]?.participants[$0]?.participant }
            return (cid, present.sorted { $0.sessionId < $1.sessionId }, ids.filter { sessions[cid]?.participants[$0] == nil }.sorted())
        }
    }

    /// Another replica's view of a participant: a copy of one connected there, or a change it
    /// made to one connected here (kept with its connection and media). Not a change to tell.
    mutating func takeFromReplica(_ participant: CallParticipant, in cid: CallID, origin: String) {
        if sessions[cid]?.participants[participant.sessionId] != nil {
            sessions[cid]?.participants[participant.sessionId]?.participant = participant
        } else {
            sessions[cid, default: LiveSession()].participants[participant.sessionId] =
                .init(participant: participant, connectionId: "", media: nil, origin: origin)
        }
    }

    /// Another replica says the participant left; returns what was held here. Not a change to tell.
    mutating func removeFromReplica(session sessionId: String, in cid: CallID) -> LiveSession.Participant? {
        sessions[cid]?.participants.removeValue(forKey: sessionId)
    }

    /// Copies of the participants connected to `origin`, per call.
    func participants(from origin: String) -> [(cid: CallID, participant: LiveSession.Participant)] {
        sessions.flatMap { cid, session in
            session.participants.values.filter { $0.origin == origin }.map { (cid, $0) }
        }
    }

    /// The participants connected here, per call (told to a replica that has just started).
    var ownParticipants: [(cid: CallID, participants: [CallParticipant])] {
        sessions.compactMap { cid, session in
            let own = session.participants.values.filter { $0.origin == nil }.map(\.participant)
            return own.isEmpty ? nil : (cid, own)
        }
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
