import ConfabProtocol
import Foundation

/// The waiting room of a call that asks to join (issue 18): a non-member's join knocks
/// (`joinCall` answers `waitingForHost` and gives no session and no media token), those who
/// may admit hear `call.participant_knocked`, and one of them admits or denies. The knocker
/// hears only the answer (`call.join_admitted` / `call.join_denied`), with nothing of the call
/// in it; once admitted they join as anyone else.
extension CallCoordinator {
    /// Records `user`'s knock on `call` and tells the hosts (once per user).
    func knock(_ user: RequestSender, at call: StoredCall) {
        calls.touch(call.cid)
        guard let knock = waitingRoom.knock(user.userId, from: user.connection.id, at: call.cid, now: Date()) else { return }
        let cid = call.cid
        emit(to: admitters(of: cid)) { _ in .participantKnocked(ParticipantKnockedEvent(cid: cid, knock: knock)) }
    }

    /// The connections of everyone hearing about the call who may let people in.
    func admitters(of cid: CallID) -> Set<String> {
        guard let call = calls[cid] else { return [] }
        return audience(of: cid).filter { id in
            guard let userId = connections.userId(of: id) else { return false }
            return capabilities(of: userId, in: call).contains(.admitParticipants)
        }
    }

    func admitParticipant(_ request: AdmitParticipantRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        try require(.admitParticipants, of: user.userId, in: call)
        guard let knockers = waitingRoom.admit(request.userId, to: call.cid) else {
            throw ProtocolError(.participantNotFound, "\(request.userId) is not waiting to join \(call.cid)")
        }
        let cid = call.cid
        emit(to: knockers) { _ in .joinAdmitted(JoinAnswerEvent(cid: cid)) }
        knockResolved(cid, userId: request.userId, outcome: .admitted, by: user.userId)
        return CallResponse(call: state(of: call, for: user.userId))
    }

    func denyParticipant(_ request: DenyParticipantRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        try require(.admitParticipants, of: user.userId, in: call)
        guard let knockers = waitingRoom.deny(request.userId, from: call.cid) else {
            throw ProtocolError(.participantNotFound, "\(request.userId) is not waiting to join \(call.cid)")
        }
        let cid = call.cid
        // The call's id is all they learn: they knew it already.
        emit(to: knockers) { _ in .joinDenied(JoinAnswerEvent(cid: cid)) }
        knockResolved(cid, userId: request.userId, outcome: .denied, by: user.userId)
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// Tells those who may admit that a knock is no longer waiting.
    func knockResolved(_ cid: CallID, userId: String, outcome: KnockOutcome, by byUserId: String?) {
        let event = KnockResolvedEvent(cid: cid, userId: userId, outcome: outcome, byUserId: byUserId)
        emit(to: admitters(of: cid)) { _ in .knockResolved(event) }
    }
}
