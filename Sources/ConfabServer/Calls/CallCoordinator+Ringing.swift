import ConfabProtocol
import Foundation

/// The ring rules (stream-video's ringing flow, decided on the server so every device agrees);
/// the rings themselves are the `RingRegistry`'s:
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
        try requireReadable(call, by: user.userId)
        _ = try ringTargets(in: call, requested: request.memberIds, caller: user.userId)
        try startRing(call.cid, memberIds: request.memberIds, video: request.video ?? false, by: user)
        return CallResponse(call: state(of: call.cid, for: user.userId, fallback: call))
    }

    /// Who a ring would reach; throws when the caller may not ring or nobody can be rung.
    func ringTargets(in call: StoredCall, requested: [String]?, caller: String) throws -> [String] {
        try call.requireNotEnded()
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
        sessions.open(cid)
        let newTargets: [String]
        if rings.ring(of: cid) != nil {
            // Ringing more people into a ring in progress extends it; those already rung are left alone.
            newTargets = rings.extend(cid, to: targets)
        } else {
            let timeout = settings.ringAutoCancelTimeout
            rings.start(
                cid, callerId: caller.userId, callerConnectionId: caller.connection.id, memberIds: targets, video: video,
                timeout: timeout
            ) { ringId in
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    await self?.ringTimedOut(cid, ringId: ringId)
                }
            }
            newTargets = targets
        }
        for target in newTargets {
            if sessions.isBusy(target, outside: cid) {
                rings.record(.rejected(.busy), by: target, in: cid)
                tell(.audienceAnd(users: [target]), about: cid) {
                    .callRejected(CallRejectedEvent(call: $0, userId: target, reason: .busy, connectionId: nil))
                }
            } else {
                emitRing(of: cid, to: connections(ofUser: target))
            }
        }
        metrics.ringStarted()
        if let replicas, let ring = rings.ring(of: cid), !newTargets.isEmpty {
            // The callees may be connected to another coordinator on the same database.
            replicas.publish(.ring(cid: cid, callerId: ring.callerId, memberIds: ring.memberIds, targets: newTargets, video: ring.video,
                                   timeout: ring.autoCancelAt.timeIntervalSinceNow))
        }
        settleRingIfAnswered(cid)
    }

    private func emitRing(of cid: CallID, to connectionIds: Set<String>) {
        guard let ring = rings.ring(of: cid) else { return }
        emit(to: connectionIds, about: cid) {
            .callRing(CallRingEvent(call: $0, callerId: ring.callerId, memberIds: ring.memberIds, video: ring.video))
        }
    }

    /// A device that connects while its user is being rung rings too (the app was opened late).
    func deliverPendingRings(to userId: String, connection: ClientConnection) {
        for cid in rings.unansweredRings(for: userId) {
            emitRing(of: cid, to: [connection.id])
        }
    }

    func acceptCall(_ request: AcceptCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        try requireReadable(call, by: user.userId)
        try call.requireNotEnded()
        guard let ring = rings.ring(of: call.cid), ring.memberIds.contains(user.userId) else {
            throw ProtocolError(.notRinging, "\(user.userId) is not being rung for \(call.cid)")
        }
        recordAcceptance(in: call.cid, by: user)
        return CallResponse(call: state(of: call, for: user.userId))
    }

    func recordAcceptance(in cid: CallID, by user: RequestSender) {
        rings.record(.accepted(at: Date()), by: user.userId, in: cid)
        // Stopped before the event is built, so the event's call state says the ring is over.
        _ = rings.stopIfEveryoneAnswered(cid)
        tell(.audienceAnd(users: [user.userId]), about: cid) {
            .callAccepted(CallAcceptedEvent(call: $0, userId: user.userId, connectionId: user.connection.id))
        }
    }

    func rejectCall(_ request: RejectCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        // The answer carries the call, so only for those who may read it.
        try requireReadable(call, by: user.userId)
        if let ring = rings.ring(of: call.cid) {
            if ring.callerId == user.userId {
                // A reject from the caller is a cancel, whatever reason the client gave
                // (stream-video's RejectionReasonProvider sends `cancel`, or `timeout` from the caller's timer).
                try cancelRing(call.cid, by: user.userId, connectionId: user.connection.id, reason: request.reason ?? .cancel)
            } else if ring.memberIds.contains(user.userId) {
                let reason = request.reason ?? .decline
                rings.record(.rejected(reason), by: user.userId, in: call.cid)
                let ringIsOver = rings.stopIfEveryoneAnswered(call.cid)
                tell(.audienceAnd(users: [user.userId]), about: call.cid) {
                    .callRejected(CallRejectedEvent(call: $0, userId: user.userId, reason: reason, connectionId: user.connection.id))
                }
                if ringIsOver { try endIfNobodyAccepted(call.cid) }
            }
        }
        // Without a ring in progress (it already ended, timed out or was answered elsewhere) a
        // reject is a harmless late answer, not an error the user should see.
        return CallResponse(call: state(of: call.cid, for: user.userId, fallback: call))
    }

    /// Stops the ring for everyone; ends the call when nobody had accepted.
    func cancelRing(_ cid: CallID, by callerId: String, connectionId: String, reason: RejectReason) throws {
        guard let ring = rings.ring(of: cid) else { return }
        rings.stop(cid)
        tell(.audienceAnd(users: ring.memberIds), about: cid) {
            .callRejected(CallRejectedEvent(call: $0, userId: callerId, reason: reason, connectionId: connectionId))
        }
        if !rings.anyoneAccepted(cid) {
            try finishCall(cid, reason: reason == .timeout ? .timedOut : .cancelled, endedBy: callerId)
        }
    }

    /// Ends the ring once every callee has answered; if all of them rejected, the call ends as unanswered.
    func settleRingIfAnswered(_ cid: CallID) {
        guard rings.stopIfEveryoneAnswered(cid) else { return }
        do {
            try endIfNobodyAccepted(cid)
        } catch {
            logger.error("could not end unanswered call", metadata: ["cid": "\(cid)", "error": "\(error)"])
        }
    }

    /// After a fully answered ring: when nobody accepted, the caller's call ends as unanswered.
    func endIfNobodyAccepted(_ cid: CallID) throws {
        if !rings.anyoneAccepted(cid) {
            try finishCall(cid, reason: .unanswered, endedBy: nil)
        }
    }

    func ringTimedOut(_ cid: CallID, ringId: UInt64) {
        guard let ring = rings.ring(of: cid), ring.ringId == ringId else { return }
        let missed = rings.unanswered(in: cid)
        rings.stop(cid)
        rings.recordMissed(missed, in: cid)
        if !missed.isEmpty {
            tell(.users([ring.callerId] + missed), about: cid) { .callMissed(CallMissedEvent(call: $0, callerId: ring.callerId, userIds: missed)) }
        }
        if !rings.anyoneAccepted(cid) {
            do {
                try finishCall(cid, reason: .timedOut, endedBy: nil)
            } catch {
                logger.error("could not end timed-out call", metadata: ["cid": "\(cid)", "error": "\(error)"])
            }
        }
        flush()
    }
}
