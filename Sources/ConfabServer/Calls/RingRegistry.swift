import ConfabProtocol
import Foundation

/// Who is ringing whom: per call, the ring in progress (with its auto-cancel timer) and the
/// answers to the latest ring, which stay readable (in the call's `session`) after it stops.
///
/// Owned by the `CallCoordinator`, which applies the ring rules (`CallCoordinator+Ringing`);
/// this type keeps the state consistent: a new ring forgets the old answers, and a stopped
/// ring's timer is always cancelled.
struct RingRegistry {
    private struct CallRinging {
        var ring: RingState?
        var answers: [String: RingAnswer] = [:]
        var missedBy: [String] = []
    }

    private var calls: [CallID: CallRinging] = [:]
    /// Answers recorded and rings stopped since `takeChanges`: what the other replicas are told.
    private var answered: [(cid: CallID, userId: String, answer: RingAnswer)] = []
    private var stopped: Set<CallID> = []
    private var lastRingId: UInt64 = 0

    var callIDs: [CallID] { Array(calls.keys) }

    /// The ring in progress on the call.
    func ring(of cid: CallID) -> RingState? { calls[cid]?.ring }

    func answer(of userId: String, in cid: CallID) -> RingAnswer? { calls[cid]?.answers[userId] }

    /// True once someone accepted the latest ring (the call then goes on without the caller's ring).
    func anyoneAccepted(_ cid: CallID) -> Bool {
        calls[cid]?.answers.values.contains { if case .accepted = $0 { true } else { false } } ?? false
    }

    /// Starts a ring, forgetting the previous ring's answers. `makeTimer` gets the new ring's id
    /// and returns its auto-cancel timer.
    mutating func start(
        _ cid: CallID, callerId: String, callerConnectionId: String, memberIds: [String], video: Bool,
        timeout: Duration, origin: String? = nil, makeTimer: (_ ringId: UInt64) -> Task<Void, Never>
    ) {
        calls[cid]?.ring?.timer?.cancel()
        lastRingId += 1
        let now = Date()
        var ring = RingState(
            ringId: lastRingId, callerId: callerId, callerConnectionId: callerConnectionId, memberIds: memberIds,
            video: video, startedAt: now, autoCancelAt: now.addingTimeInterval(timeout.seconds))
        ring.timer = makeTimer(ring.ringId)
        ring.origin = origin
        calls[cid] = CallRinging(ring: ring)
    }

    /// Rings more people into the ring in progress; returns those not rung before.
    mutating func extend(_ cid: CallID, to targets: [String]) -> [String] {
        guard let ring = calls[cid]?.ring else { return [] }
        let newTargets = targets.filter { !ring.memberIds.contains($0) }
        calls[cid]?.ring?.memberIds += newTargets
        return newTargets
    }

    mutating func record(_ answer: RingAnswer, by userId: String, in cid: CallID) {
        calls[cid]?.answers[userId] = answer
        answered.append((cid, userId, answer))
    }

    /// Stops the ring when every callee has accepted or rejected; true when it did.
    mutating func stopIfEveryoneAnswered(_ cid: CallID) -> Bool {
        guard let entry = calls[cid], let ring = entry.ring else { return false }
        let answered = ring.memberIds.allSatisfy { entry.answers[$0] != nil }
        if answered { _ = stop(cid) }
        return answered
    }

    /// Stops the ring in progress (its answers stay); returns it.
    @discardableResult
    mutating func stop(_ cid: CallID) -> RingState? {
        guard let ring = calls[cid]?.ring else { return nil }
        ring.timer?.cancel()
        calls[cid]?.ring = nil
        stopped.insert(cid)
        return ring
    }

    /// Callees of the ring who have not answered.
    func unanswered(in cid: CallID) -> [String] {
        guard let entry = calls[cid], let ring = entry.ring else { return [] }
        return ring.memberIds.filter { entry.answers[$0] == nil }
    }

    mutating func recordMissed(_ userIds: [String], in cid: CallID) {
        calls[cid]?.missedBy = userIds
    }

    /// Stops the ring and forgets its answers (the call's session is over).
    mutating func forget(_ cid: CallID) {
        stop(cid)
        calls[cid] = nil
    }

    /// Calls whose ring in progress is for `userId` and not yet answered by them.
    func unansweredRings(for userId: String) -> [CallID] {
        calls.compactMap { cid, entry in
            guard let ring = entry.ring, ring.memberIds.contains(userId), entry.answers[userId] == nil else { return nil }
            return cid
        }
    }

    /// Calls whose ring in progress was started from this connection.
    func rings(startedFrom connectionId: String) -> [CallID] {
        calls.compactMap { cid, entry in entry.ring?.callerConnectionId == connectionId ? cid : nil }
    }

    /// Cancels every auto-cancel timer (the server is stopping).
    /// What changed since the last call: answers recorded, rings stopped.
    mutating func takeChanges() -> (answered: [(cid: CallID, userId: String, answer: RingAnswer)], stopped: Set<CallID>) {
        defer {
            answered = []
            stopped = []
        }
        return (answered, stopped)
    }

    func cancelTimers() {
        for entry in calls.values { entry.ring?.timer?.cancel() }
    }

    /// The ring part of the call's `session` as clients see it.
    func wireValue(of cid: CallID, participants: [CallParticipant]) -> CallSession {
        let entry = calls[cid] ?? CallRinging()
        var accepted: [String: Date] = [:]
        var rejected: [String: RejectReason] = [:]
        for (userId, answer) in entry.answers {
            switch answer {
            case .accepted(let date): accepted[userId] = date
            case .rejected(let reason): rejected[userId] = reason
            }
        }
        return CallSession(
            participants: participants, ringing: entry.ring?.wireValue, acceptedBy: accepted, rejectedBy: rejected,
            missedBy: entry.missedBy)
    }
}

extension Duration {
    /// The duration in seconds, for `Date` arithmetic.
    var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
