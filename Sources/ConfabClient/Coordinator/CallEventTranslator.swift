import ConfabCore
import ConfabProtocol
import FoundationEssentials

/// Turns coordinator events into what the call view model understands, for one signed-in
/// device. It remembers the last state of each call it has seen, because some events
/// (blocked, pinned) name only what changed.
struct CallEventTranslator {
    let currentUserID: String
    /// This device's connection, from the hello response: tells "accepted here" from "accepted
    /// on my other device".
    var connectionID: String?
    /// The latest state of every call this device has heard about.
    private(set) var knownCalls: [CallID: CallSnapshot] = [:]
    private let now: @Sendable () -> Date

    init(currentUserID: String, connectionID: String? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        self.currentUserID = currentUserID
        self.connectionID = connectionID
        self.now = now
    }

    /// Records a call state (from a response or an event) and returns it as the app sees it.
    @discardableResult
    mutating func remember(_ state: CallState) -> CallSnapshot {
        let snapshot = CallSnapshot(state)
        knownCalls[state.cid] = snapshot
        return snapshot
    }

    /// The events for the app, in order; empty for events the app has no use for.
    mutating func translate(_ event: ServerEvent) -> [CallServiceEvent] {
        switch event {
        case .callRing(let ring):
            remember(ring.call)
            // The SDK ignores rings it started itself (CallEventsHandler); the server never
            // sends them to the caller, but a ring from our own user must not ring us anyway.
            guard ring.callerId != currentUserID else { return [] }
            return [.ringing(incomingCall(in: ring.call, callerID: ring.callerId, video: ring.video))]

        case .callAccepted(let accepted):
            let cid = accepted.call.cid
            remember(accepted.call)
            return [.accepted(cid, userID: accepted.userId, byThisDevice: isThisDevice(accepted.connectionId))]

        case .callRejected(let rejected):
            let snapshot = remember(rejected.call)
            let event = CallServiceEvent.rejected(
                snapshot.id, userID: rejected.userId, reason: RejectionReason(rejected.reason),
                byThisDevice: isThisDevice(rejected.connectionId), call: snapshot)
            // Rejected for us by the coordinator (no connection of ours did it): a ring we
            // never saw, because we were in another call.
            if rejected.userId == currentUserID, rejected.reason == .busy, rejected.connectionId == nil,
               let ringing = rejected.call.session.ringing, ringing.callerId != currentUserID {
                return [event, .ringTurnedAway(incomingCall(in: rejected.call, callerID: ringing.callerId, video: ringing.video))]
            }
            return [event]

        case .callMissed(let missed):
            return [.missed(remember(missed.call).id)]

        case .callEnded(let ended):
            let snapshot = remember(ended.call)
            return [.ended(snapshot.id, reason: Self.reasonText(ended.reason, endedBy: ended.endedBy))]

        case .participantJoined(let joined):
            let participant = ConfabCore.CallParticipant(joined.participant)
            update(joined.cid) { call in
                call.participants.removeAll { $0.sessionID == participant.sessionID }
                call.participants.append(participant)
            }
            return [.participantJoined(joined.cid, participant)]

        case .participantLeft(let left):
            let participant = ConfabCore.CallParticipant(left.participant)
            update(left.cid) { $0.participants.removeAll { $0.sessionID == participant.sessionID } }
            return [.participantLeft(left.cid, participant, departure: left.reason == .disconnected ? .connectionLost : .left)]

        case .callCreated(let changed), .callUpdated(let changed), .recordingStarted(let changed),
             .recordingStopped(let changed):
            return [.callUpdated(remember(changed.call))]
        case .membersAdded(let added):
            return [.callUpdated(remember(added.call))]
        case .membersRemoved(let removed):
            return [.callUpdated(remember(removed.call))]

        case .userBlocked(let blocked):
            var events = updated(blocked.cid) { call in
                if !call.blockedUserIDs.contains(blocked.userId) { call.blockedUserIDs.append(blocked.userId) }
                call.participants.removeAll { $0.user.id == blocked.userId }
            }
            // CallService has no "you were removed" event; for this device the call is over.
            if blocked.userId == currentUserID {
                events.append(.ended(blocked.cid, reason: "\(blocked.byUserId) blocked you from this call"))
            }
            return events
        case .userUnblocked(let unblocked):
            return updated(unblocked.cid) { $0.blockedUserIDs.removeAll { $0 == unblocked.userId } }
        case .userKicked(let kicked):
            guard kicked.userId == currentUserID else { return [] }
            return [.ended(kicked.cid, reason: "\(kicked.byUserId) removed you from the call")]

        case .pinned(let pin):
            return updated(pin.cid) { call in
                for index in call.participants.indices where call.participants[index].sessionID == pin.sessionId {
                    call.participants[index].isPinned = true
                }
            }
        case .unpinned(let pin):
            return updated(pin.cid) { call in
                for index in call.participants.indices where call.participants[index].sessionID == pin.sessionId {
                    call.participants[index].isPinned = false
                }
            }

        case .usersMuted(let muted):
            // Everyone in the call hears about it; only the muted users' devices act.
            guard muted.userIds.contains(currentUserID) else { return [] }
            var tracks: ModeratedTracks = []
            if muted.audio { tracks.insert(.microphone) }
            if muted.video { tracks.insert(.camera) }
            if muted.screenshare { tracks.insert(.screenshare) }
            guard !tracks.isEmpty else { return [] }
            return [.mutedByModerator(muted.cid, byUserID: muted.byUserId, tracks: tracks)]

        case .healthCheck, .unknown:
            // Health checks are only a heartbeat.
            return []

        case .chatMessage(let chat):
            return [.chatMessage(chat.message)]
        case .reaction(let reaction):
            return [.reaction(reaction.cid, sessionID: reaction.sessionId, reaction.emoji)]
        case .handRaised(let hand):
            return handChanged(hand, to: hand.raisedHand)
        case .handLowered(let hand):
            return handChanged(hand, to: nil)
        case .videoViewsUpdated(let update):
            // Validated by the coordinator; a second view of one session would be its mistake: the larger counts.
            let views = Dictionary(update.views.map { ($0.sessionId, VideoSize(width: $0.width, height: $0.height)) }) { $0.width * $0.height >= $1.width * $1.height ? $0 : $1 }
            return [.videoViews(update.cid, viewerSessionID: update.sessionId, views: views)]
        case .mediaStateChanged(let change):
            update(change.cid) { call in
                for index in call.participants.indices where call.participants[index].sessionID == change.sessionId {
                    call.participants[index].microphoneOn = change.microphoneOn
                    call.participants[index].cameraOn = change.cameraOn
                }
            }
            return [.mediaStateChanged(change.cid, sessionID: change.sessionId, microphoneOn: change.microphoneOn, cameraOn: change.cameraOn)]

        case .participantKnocked(let knocked):
            update(knocked.cid) { call in
                if !call.knocks.contains(where: { $0.userId == knocked.knock.userId }) { call.knocks.append(knocked.knock) }
            }
            return [.knocked(knocked.cid, knocked.knock)]
        case .knockResolved(let resolved):
            update(resolved.cid) { call in call.knocks.removeAll { $0.userId == resolved.userId } }
            return [.knockResolved(resolved.cid, userID: resolved.userId, outcome: resolved.outcome, byUserID: resolved.byUserId)]
        case .joinAdmitted(let answer):
            return [.joinAnswered(answer.cid, admitted: true)]
        case .joinDenied(let answer):
            return [.joinAnswered(answer.cid, admitted: false)]
        }
    }

    // MARK: Helpers

    /// Remembers a hand going up or down, so that a later call update keeps it.
    private mutating func handChanged(_ hand: HandEvent, to raised: RaisedHand?) -> [CallServiceEvent] {
        update(hand.cid) { call in
            for index in call.participants.indices where call.participants[index].sessionID == hand.sessionId {
                call.participants[index].raisedHand = raised
            }
        }
        return [.handChanged(hand.cid, sessionID: hand.sessionId, hand: raised, byUserID: hand.byUserId)]
    }

    private func isThisDevice(_ connectionID: String?) -> Bool {
        guard let connectionID, let ours = self.connectionID else { return false }
        return connectionID == ours
    }

    private func incomingCall(in call: CallState, callerID: String, video: Bool) -> IncomingCall {
        let members = call.members.map { Member(user: User(id: $0.userId), role: $0.role.rawValue) }
        return IncomingCall(
            id: call.cid.id, caller: User(id: callerID), type: call.cid.type, members: members,
            timeout: ringTimeout(call.session.ringing), video: video)
    }

    /// What is left of the ring's auto-cancel time. The two clocks may disagree: when the
    /// remainder is impossible (negative, or longer than the whole ring) use the ring's length.
    private func ringTimeout(_ ringing: Ringing?) -> Duration {
        guard let ringing else { return .seconds(30) }
        let length = max(ringing.autoCancelAt.timeIntervalSince(ringing.startedAt), 0)
        let remaining = ringing.autoCancelAt.timeIntervalSince(now())
        let seconds = (remaining > 0 && remaining <= length) ? remaining : length
        return .milliseconds(Int((seconds * 1000).rounded()))
    }

    /// Changes a remembered call; nothing happens for calls this device has not seen.
    private mutating func update(_ cid: CallID, _ change: (inout CallSnapshot) -> Void) {
        guard var call = knownCalls[cid] else { return }
        change(&call)
        knownCalls[cid] = call
    }

    /// Changes a remembered call and reports it; no event for calls this device has not seen.
    private mutating func updated(_ cid: CallID, _ change: (inout CallSnapshot) -> Void) -> [CallServiceEvent] {
        update(cid, change)
        return knownCalls[cid].map { [.callUpdated($0)] } ?? []
    }

    /// Why the call ended, in words for the user.
    static func reasonText(_ reason: CallEndReason, endedBy: String?) -> String {
        switch reason {
        case .ended: endedBy.map { tr("%@ ended the call", $0) } ?? tr("The call ended")
        case .unanswered: tr("Nobody accepted the call")
        case .timedOut: tr("Nobody answered")
        case .cancelled: endedBy.map { tr("%@ cancelled the call", $0) } ?? tr("The call was cancelled")
        }
    }
}
