import ConfabProtocol
import Foundation

/// The ring rules (stream-video's ringing flow, decided on the server so every device agrees):
/// - the caller is never rung; every connected device of each callee is;
/// - a callee already in another call is rejected as `busy` on their behalf;
/// - a callee's own `timeout` reject is recorded like any other answer;
/// - the server's auto-cancel timer sends `call.missed` to whoever has not answered;
/// - when every callee rejected, or the caller cancels before anyone accepted, or nobody
///   answered in time, the call ends (`unanswered`, `cancelled`, `timedOut`);
/// - `call.accepted`/`call.rejected` reach the callee's other devices, so they stop ringing;
/// - `call.ended` reaches ringing devices, so they dismiss the ring.
extension CallCoordinator {
    func ringCall(_ request: RingCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        _ = try ringTargets(in: call, requested: request.memberIds, caller: user.userId)
        try startRing(call.cid, memberIds: request.memberIds, video: request.video ?? false, by: user)
        return CallResponse(call: state(of: call.cid, for: user.userId) ?? state(of: call, for: user.userId))
    }

    /// Who a ring would reach; throws when the caller may not ring or nobody can be rung.
    func ringTargets(in call: StoredCall, requested: [String]?, caller: String) throws -> [String] {
        guard call.endedAt == nil else { throw ProtocolError(.callEnded, "call \(call.cid) has ended") }
        try require(.ringCall, of: caller, in: call)
        var seen = Set<String>()
        let targets = (requested ?? call.members.map(\.userId)).filter { $0 != caller && seen.insert($0).inserted }
        let strangers = targets.filter { !call.isMember($0) }
        guard strangers.isEmpty else {
            throw ProtocolError(.notAMember, "only members can be rung; not members of \(call.cid): \(strangers.joined(separator: ", "))")
        }
        guard !targets.isEmpty else {
            throw ProtocolError(.invalidRequest, "nobody to ring: \(call.cid) has no members other than the caller")
        }
        return targets
    }

    func startRing(_ cid: CallID, memberIds: [String]?, video: Bool, by caller: RequestSender) throws {
        let call = try loadCall(cid)
        let targets = try ringTargets(in: call, requested: memberIds, caller: caller.userId)
        var session = sessions[cid, default: LiveSession()]
        let newTargets: [String]
        if var ring = session.ring {
            // Ringing more people into a ring in progress extends it; those already rung are left alone.
            newTargets = targets.filter { !ring.memberIds.contains($0) }
            ring.memberIds += newTargets
            session.ring = ring
        } else {
            nextRingId += 1
            let now = Date()
            var ring = RingState(
                ringId: nextRingId, callerId: caller.userId, callerConnectionId: caller.connection.id, memberIds: targets,
                video: video, startedAt: now, autoCancelAt: now.addingTimeInterval(settings.ringAutoCancelTimeout.seconds))
            let ringId = ring.ringId
            let timeout = settings.ringAutoCancelTimeout
            ring.timer = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return }
                await self?.ringTimedOut(cid, ringId: ringId)
            }
            session.startRing(ring)
            newTargets = targets
        }
        sessions[cid] = session
        for target in newTargets {
            if isBusy(target, outside: cid) {
                sessions[cid]?.rejectedBy[target] = .busy
                emit(to: audience(of: cid).union(connections(ofUser: target)), about: cid) {
                    .callRejected(CallRejectedEvent(call: $0, userId: target, reason: .busy, connectionId: nil))
                }
            } else {
                emitRing(of: cid, to: connections(ofUser: target))
            }
        }
        settleRingIfAnswered(cid)
    }

    private func emitRing(of cid: CallID, to connectionIds: Set<String>) {
        guard let ring = sessions[cid]?.ring else { return }
        emit(to: connectionIds, about: cid) {
            .callRing(CallRingEvent(call: $0, callerId: ring.callerId, memberIds: ring.memberIds, video: ring.video))
        }
    }

    /// A device that connects while its user is being rung rings too (the app was opened late).
    func deliverPendingRings(to userId: String, connection: ClientConnection) {
        for (cid, session) in sessions {
            guard let ring = session.ring, ring.memberIds.contains(userId),
                  session.acceptedBy[userId] == nil, session.rejectedBy[userId] == nil else { continue }
            emitRing(of: cid, to: [connection.id])
        }
    }

    /// In the session of some other call, on any device.
    private func isBusy(_ userId: String, outside cid: CallID) -> Bool {
        sessions.contains { otherCid, session in
            otherCid != cid && !session.participants(ofUser: userId).isEmpty
        }
    }

    func acceptCall(_ request: AcceptCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        guard call.endedAt == nil else { throw ProtocolError(.callEnded, "call \(call.cid) has ended") }
        guard let ring = sessions[call.cid]?.ring, ring.memberIds.contains(user.userId) else {
            throw ProtocolError(.notRinging, "\(user.userId) is not being rung for \(call.cid)")
        }
        recordAcceptance(in: call.cid, by: user)
        return CallResponse(call: state(of: call, for: user.userId))
    }

    func recordAcceptance(in cid: CallID, by user: RequestSender) {
        sessions[cid]?.acceptedBy[user.userId] = Date()
        sessions[cid]?.rejectedBy[user.userId] = nil
        // Stopped before the event is built, so the event's call state says the ring is over.
        _ = stopRingIfEveryoneAnswered(cid)
        emit(to: audience(of: cid).union(connections(ofUser: user.userId)), about: cid) {
            .callAccepted(CallAcceptedEvent(call: $0, userId: user.userId, connectionId: user.connection.id))
        }
    }

    func rejectCall(_ request: RejectCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        if let ring = sessions[call.cid]?.ring {
            if ring.callerId == user.userId {
                // A reject from the caller is a cancel, whatever reason the client gave
                // (stream-video's RejectionReasonProvider sends `cancel`, or `timeout` from the caller's timer).
                try cancelRing(call.cid, by: user.userId, connectionId: user.connection.id, reason: request.reason ?? .cancel)
            } else if ring.memberIds.contains(user.userId) {
                let reason = request.reason ?? .decline
                sessions[call.cid]?.rejectedBy[user.userId] = reason
                sessions[call.cid]?.acceptedBy[user.userId] = nil
                let ringIsOver = stopRingIfEveryoneAnswered(call.cid)
                emit(to: audience(of: call.cid).union(connections(ofUser: user.userId)), about: call.cid) {
                    .callRejected(CallRejectedEvent(call: $0, userId: user.userId, reason: reason, connectionId: user.connection.id))
                }
                if ringIsOver { try endIfNobodyAccepted(call.cid) }
            }
        }
        // Without a ring in progress (it already ended, timed out or was answered elsewhere) a
        // reject is a harmless late answer, not an error the user should see.
        return CallResponse(call: state(of: call.cid, for: user.userId) ?? state(of: call, for: user.userId))
    }

    /// Stops the ring for everyone; ends the call when nobody had accepted.
    func cancelRing(_ cid: CallID, by callerId: String, connectionId: String, reason: RejectReason) throws {
        guard let ring = sessions[cid]?.ring else { return }
        let recipients = audience(of: cid).union(ring.memberIds.flatMap { connections(ofUser: $0) })
        stopRing(cid)
        emit(to: recipients, about: cid) {
            .callRejected(CallRejectedEvent(call: $0, userId: callerId, reason: reason, connectionId: connectionId))
        }
        if sessions[cid]?.acceptedBy.isEmpty ?? true {
            try finishCall(cid, reason: reason == .timeout ? .timedOut : .cancelled, endedBy: callerId)
        }
    }

    /// Ends the ring once every callee has answered; if all of them rejected, the call ends as unanswered.
    func settleRingIfAnswered(_ cid: CallID) {
        guard stopRingIfEveryoneAnswered(cid) else { return }
        do {
            try endIfNobodyAccepted(cid)
        } catch {
            logger.error("could not end unanswered call", metadata: ["cid": "\(cid)", "error": "\(error)"])
        }
    }

    /// Stops the ring when every callee has accepted or rejected; true when it did.
    func stopRingIfEveryoneAnswered(_ cid: CallID) -> Bool {
        guard let session = sessions[cid], let ring = session.ring else { return false }
        let answered = ring.memberIds.allSatisfy { session.acceptedBy[$0] != nil || session.rejectedBy[$0] != nil }
        if answered { stopRing(cid) }
        return answered
    }

    /// After a fully answered ring: when nobody accepted, the caller's call ends as unanswered.
    func endIfNobodyAccepted(_ cid: CallID) throws {
        if sessions[cid]?.acceptedBy.isEmpty ?? true {
            try finishCall(cid, reason: .unanswered, endedBy: nil)
        }
    }

    func ringTimedOut(_ cid: CallID, ringId: UInt64) {
        guard let session = sessions[cid], let ring = session.ring, ring.ringId == ringId else { return }
        let missed = ring.memberIds.filter { session.acceptedBy[$0] == nil && session.rejectedBy[$0] == nil }
        stopRing(cid)
        sessions[cid]?.missedBy = missed
        if !missed.isEmpty {
            let recipients = connections(ofUser: ring.callerId).union(missed.flatMap { connections(ofUser: $0) })
            emit(to: recipients, about: cid) { .callMissed(CallMissedEvent(call: $0, callerId: ring.callerId, userIds: missed)) }
        }
        if session.acceptedBy.isEmpty {
            do {
                try finishCall(cid, reason: .timedOut, endedBy: nil)
            } catch {
                logger.error("could not end timed-out call", metadata: ["cid": "\(cid)", "error": "\(error)"])
            }
        }
        flush()
    }

    private func stopRing(_ cid: CallID) {
        sessions[cid]?.ring?.timer?.cancel()
        sessions[cid]?.ring = nil
    }

    /// Ends the call: saved as ended, ring stopped, session emptied, everyone told.
    func finishCall(_ cid: CallID, reason: CallEndReason, endedBy: String?) throws {
        var call = try loadCall(cid)
        let ringing = sessions[cid]?.ring?.memberIds ?? []
        let recipients = audience(of: cid).union(ringing.flatMap { connections(ofUser: $0) })
        let now = Date()
        call.endedAt = now
        call.updatedAt = now
        call.recording = false
        call.broadcasting = false
        try save(call)
        stopRing(cid)
        sessions[cid]?.participants = [:]
        // Before the room goes, so what was recorded is converted and the broadcast stops.
        try? endRecording(of: cid)
        endBroadcast(of: cid)
        closeMediaRoom(of: cid)
        emit(to: recipients, about: cid) { .callEnded(CallEndedEvent(call: $0, reason: reason, endedBy: endedBy)) }
        // An ended call has no session: its watchers stop hearing about it, and it can leave
        // memory (`evictIdleCalls`). Reopening it (a new ring, a host's join) starts a new one.
        sessions[cid] = nil
    }
}

extension Duration {
    /// The duration in seconds, for `Date` arithmetic.
    var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
