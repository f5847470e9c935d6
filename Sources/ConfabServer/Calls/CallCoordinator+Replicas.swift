import ConfabProtocol
import Foundation

/// Coordinators that share one PostgreSQL act as one (issue 17): a client may be connected to
/// any of them. Each replica owns what started on it — its connections' participants and the
/// rings its clients started — and keeps copies of the others', so that:
/// - a call's state (`session.participants`), busy checks and ring answers are the same
///   whichever replica a client is on (`.participants`, `.ring`, `.ringAnswered`, `.ringOver`);
/// - every event a replica sends its own clients reaches the others' (`relay`, `.relayed`);
/// - a replica that dies (not heard from for `ReplicaLiveness.deadAfter`) takes its
///   participants with it, and rings it started are decided by the copies' own timers.
/// Changes made because another replica said so are never told back (`handleReplicaMessage`
/// drops them), so nothing echoes. Waiting-room knocks stay on the replica knocked on.
enum ReplicaLiveness {
    static let heartbeat = Duration.seconds(1)
    static let deadAfter = Duration.seconds(5)
}

extension CallCoordinator {
    // MARK: Telling every replica's clients

    /// Sends `event` (no call state inside) to `recipients` here and on every other replica.
    /// `here`: who hears it on this replica when that was decided before the change it tells of
    /// (a participant's own device, before they left).
    func tell(_ recipients: Recipients, in cid: CallID, here: Set<String>? = nil, _ event: ServerEvent) {
        emit(to: here ?? connectionIds(of: recipients, in: cid)) { _ in event }
        relay(recipients, in: cid, event)
    }

    /// Sends an event that carries the call, as each recipient sees it, to `recipients` here and
    /// on every other replica (`here` as above).
    func tell(_ recipients: Recipients, about cid: CallID, here: Set<String>? = nil, _ makeEvent: (CallState) -> ServerEvent) {
        emit(to: here ?? connectionIds(of: recipients, in: cid), about: cid, makeEvent)
        relay(recipients, about: cid, makeEvent)
    }

    /// This replica's connections among `recipients`.
    func connectionIds(of recipients: Recipients, in cid: CallID) -> Set<String> {
        switch recipients {
        case .audience: audience(of: cid)
        case .audienceAnd(let users): users.reduce(audience(of: cid)) { $0.union(connections(ofUser: $1)) }
        case .users(let users): Set(users.flatMap { connections(ofUser: $0) })
        }
    }

    /// Sends `event` (no call state inside) to the other replicas' connections among `recipients`.
    func relay(_ recipients: Recipients, in cid: CallID, _ event: ServerEvent) {
        guard replicas != nil else { return }
        publishChangesToReplicas()
        replicas?.publish(.relayed(RelayedEvent(cid: cid, recipients: recipients, envelope: EventEnvelope(event: event), carriesCall: false)))
    }

    /// Sends an event that carries the call to the other replicas' connections among `recipients`;
    /// each builds the call as its recipients see it.
    func relay(_ recipients: Recipients, about cid: CallID, _ makeEvent: (CallState) -> ServerEvent) {
        guard replicas != nil, let call = calls[cid] else { return }
        publishChangesToReplicas()
        // Built for the creator only to have a shape to send: every receiver replaces the state.
        let event = makeEvent(state(of: call, for: call.createdBy))
        replicas?.publish(.relayed(RelayedEvent(cid: cid, recipients: recipients, envelope: EventEnvelope(event: event), carriesCall: true)))
    }

    /// After each request (`flush`), and before each relayed event (so that the others' view of
    /// the call is current when its clients hear of the change): the participants and ring
    /// answers changed so far.
    func publishChangesToReplicas() {
        let participantChanges = sessions.takeChanges()
        let ringChanges = rings.takeChanges()
        guard let replicas else { return }
        for change in participantChanges {
            replicas.publish(.participants(cid: change.cid, present: change.present, gone: change.gone))
        }
        for answer in ringChanges.answered {
            replicas.publish(.ringAnswered(cid: answer.cid, userId: answer.userId, answer: answer.answer))
        }
        for cid in ringChanges.stopped.sorted(by: { $0.description < $1.description }) {
            replicas.publish(.ringOver(cid: cid))
        }
    }

    /// Says hello (the others answer with their participants) and beats until `stopHeartbeat`;
    /// each beat also looks for replicas that went quiet.
    func startReplicaHeartbeat() {
        guard let replicas else { return }
        replicas.publish(.hello)
        replicaHeartbeat?.cancel()
        replicaHeartbeat = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: ReplicaLiveness.heartbeat)
                await self?.beat()
            }
        }
    }

    private func beat() {
        replicas?.publish(.alive)
        let now = ContinuousClock.now
        for (origin, heard) in replicasHeard where now - heard > ReplicaLiveness.deadAfter {
            replicaDied(origin)
        }
    }

    func isAlive(replica origin: String) -> Bool {
        guard let heard = replicasHeard[origin] else { return false }
        return ContinuousClock.now - heard <= ReplicaLiveness.deadAfter
    }

    // MARK: Hearing from the others

    /// A message from another coordinator on the same database.
    func handleReplicaMessage(_ message: ReplicaMessage) {
        replicasHeard[message.origin] = .now
        switch message.event {
        case .ring(let cid, let callerId, let memberIds, let targets, let video, let timeout):
            ringFromAnotherReplica(cid, callerId: callerId, memberIds: memberIds, targets: targets, video: video,
                                   timeout: timeout.map { Duration.milliseconds(Int64($0 * 1000)) } ?? settings.ringAutoCancelTimeout,
                                   origin: message.origin)
        case .ringAnswered(let cid, let userId, let answer):
            ringAnsweredElsewhere(cid, userId: userId, answer: answer)
        case .ringOver(let cid):
            rings.stop(cid)
        case .callSaved(let cid):
            reloadCallSavedElsewhere(cid)
        case .participants(let cid, let present, let gone):
            participantsChangedElsewhere(cid, present: present, gone: gone, origin: message.origin)
        case .relayed(let relayed):
            deliver(relayed)
        case .alive:
            break
        case .hello:
            for own in sessions.ownParticipants {
                replicas?.publish(.participants(cid: own.cid, present: own.participants, gone: []))
            }
        }
        // What the message changed here is the other replica's news, not this one's to tell.
        _ = sessions.takeChanges()
        _ = rings.takeChanges()
        flush()
    }

    /// Another replica saved `cid`: a copy held here is replaced by the database's, so that
    /// what it decides (a member added, a user blocked, the call ended, a new link) holds here
    /// too. Its clients here hear of it through the event the other replica relays.
    private func reloadCallSavedElsewhere(_ cid: CallID) {
        guard let cached = calls[cid] else { return }
        do {
            guard let fresh = try store.call(cid) else { return }
            if fresh.linkSecret != cached.linkSecret { calls.forgetLinkHolders(of: cid) }
            calls.keep(fresh)
        } catch {
            // A copy that may be stale is worse than none: the next request reads the database.
            logger.error("could not reload a call another replica changed", metadata: ["cid": "\(cid)", "error": "\(error)"])
            if sessions[cid] == nil { calls.forget(cid) }
        }
    }

    private func deliver(_ relayed: RelayedEvent) {
        let cid = relayed.cid
        let local = connectionIds(of: relayed.recipients, in: cid)
        guard !local.isEmpty else { return }
        let event = relayed.envelope.event
        if relayed.carriesCall {
            // The call as each recipient sees it, read afresh when it is not in memory here.
            guard calls[cid] != nil || (try? existingCall(cid)) != nil else { return }
            emit(to: local, about: cid) { event.withCall($0) }
        } else {
            emit(to: local) { _ in event }
        }
    }

    private func participantsChangedElsewhere(_ cid: CallID, present: [CallParticipant], gone: [String], origin: String) {
        for participant in present {
            sessions.takeFromReplica(participant, in: cid, origin: origin)
        }
        for sessionId in gone {
            guard let removed = sessions.removeFromReplica(session: sessionId, in: cid) else { continue }
            calls.touch(cid)
            // One of ours, taken out there (kicked, blocked, the call ended): its media goes too.
            if removed.origin == nil, let token = removed.media?.token {
                rateLimits.forget(session: sessionId)
                revokeMedia(token, in: cid)
                ejectMedia(session: sessionId, in: cid)
            }
        }
    }

    /// `origin` stopped beating: its participants are gone (its clients will join again,
    /// through a replica that lives), said to the clients here as a lost connection.
    private func replicaDied(_ origin: String) {
        replicasHeard[origin] = nil
        logger.warning("a replica stopped answering; its participants leave their calls", metadata: ["replica": "\(origin)"])
        for (cid, entry) in sessions.participants(from: origin) {
            let recipients = audience(of: cid)
            _ = sessions.removeFromReplica(session: entry.participant.sessionId, in: cid)
            calls.touch(cid)
            emit(to: recipients) { _ in
                .participantLeft(ParticipantLeftEvent(cid: cid, participant: entry.participant, reason: .disconnected))
            }
        }
        _ = sessions.takeChanges()
        flush()
    }

    // MARK: Rings across replicas

    /// Another replica rang people in `cid`: a copy of the ring is kept here, so that callees
    /// connected here are rung and can answer; their devices ring.
    func ringFromAnotherReplica(
        _ cid: CallID, callerId: String, memberIds: [String], targets: [String], video: Bool, timeout: Duration, origin: String
    ) {
        // A copy held here is current: the other replica saved the call (`callSaved`) before it rang.
        guard (try? existingCall(cid)) != nil else {
            logger.warning("a ring from another replica names a call this one cannot read", metadata: ["cid": "\(cid)"])
            return
        }
        sessions.open(cid)
        if rings.ring(of: cid) != nil {
            _ = rings.extend(cid, to: targets)
        } else {
            rings.start(cid, callerId: callerId, callerConnectionId: "", memberIds: memberIds, video: video,
                        timeout: timeout, origin: origin) { ringId in
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    await self?.copiedRingTimedOut(cid, ringId: ringId)
                }
            }
        }
        for target in targets where target != callerId {
            emit(to: connections(ofUser: target), about: cid) {
                .callRing(CallRingEvent(call: $0, callerId: callerId, memberIds: memberIds, video: video))
            }
        }
    }

    /// The copy's timer: the replica that rang decides (its own timer fires at the same time,
    /// and its `ringOver` stops this copy). While it lives, this copy waits for that; once it
    /// is dead, the ring is missed and the call ended here, as it would have been there.
    private func copiedRingTimedOut(_ cid: CallID, ringId: UInt64) {
        guard let ring = rings.ring(of: cid), ring.ringId == ringId, let origin = ring.origin else { return }
        if isAlive(replica: origin) {
            Task { [weak self] in
                try? await Task.sleep(for: ReplicaLiveness.heartbeat)
                await self?.copiedRingTimedOut(cid, ringId: ringId)
            }
        } else {
            ringTimedOut(cid, ringId: ringId)
        }
    }

    /// A callee on another replica answered: recorded as if answered here. The replica that
    /// rang settles the ring (an unanswered call ends there; the others hear `callSaved`).
    private func ringAnsweredElsewhere(_ cid: CallID, userId: String, answer: RingAnswer) {
        guard let ring = rings.ring(of: cid) else { return }
        rings.record(answer, by: userId, in: cid)
        guard ring.origin == nil else {
            _ = rings.stopIfEveryoneAnswered(cid)
            return
        }
        // The last answer may have ended the call there already (a reject on that replica).
        if let call = try? existingCall(cid), call.endedAt != nil {
            rings.stop(cid)
            return
        }
        settleRingIfAnswered(cid)
    }
}

extension ServerEvent {
    /// The same event with `state` as its call (for events that carry one).
    func withCall(_ state: CallState) -> ServerEvent {
        switch self {
        case .callCreated(var e): e.call = state; return .callCreated(e)
        case .callUpdated(var e): e.call = state; return .callUpdated(e)
        case .recordingStarted(var e): e.call = state; return .recordingStarted(e)
        case .recordingStopped(var e): e.call = state; return .recordingStopped(e)
        case .callRing(var e): e.call = state; return .callRing(e)
        case .callAccepted(var e): e.call = state; return .callAccepted(e)
        case .callRejected(var e): e.call = state; return .callRejected(e)
        case .callMissed(var e): e.call = state; return .callMissed(e)
        case .callEnded(var e): e.call = state; return .callEnded(e)
        case .membersAdded(var e): e.call = state; return .membersAdded(e)
        case .membersRemoved(var e): e.call = state; return .membersRemoved(e)
        default: return self
        }
    }
}
