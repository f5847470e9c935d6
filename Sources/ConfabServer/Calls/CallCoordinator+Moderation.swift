import ConfabProtocol
import Foundation

/// What hosts do to others in a call: block and unblock (kept with the call, in the store),
/// kick, mute (relayed: each device mutes itself) and pin for everyone (kept in the session).
extension CallCoordinator {
    func blockUser(_ request: BlockUserRequest, by user: RequestSender) throws -> CallResponse {
        var call = try loadCall(request.cid)
        try require(.blockUsers, of: user.userId, in: call)
        try UserID.validate(request.userId)
        guard request.userId != user.userId else { throw ProtocolError(.invalidRequest, "you cannot block yourself") }
        try block(request.userId, in: &call, by: user)
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// Blocks and removes the user's devices from the session; they hear `call.blocked_user`.
    private func block(_ userId: String, in call: inout StoredCall, by user: RequestSender) throws {
        guard !call.blockedUsers.contains(userId) else { return }
        call.blockedUsers.append(userId)
        call.updatedAt = Date()
        try save(call)
        let recipients = audience(of: call.cid, andUser: userId)
        for participant in sessions[call.cid]?.participants(ofUser: userId) ?? [] {
            removeParticipant(participant, from: call.cid, reason: .blocked)
        }
        let cid = call.cid
        tell(.audienceAnd(users: [userId]), in: cid, here: recipients, .userBlocked(UserBlockEvent(cid: cid, userId: userId, byUserId: user.userId)))
    }

    func unblockUser(_ request: UnblockUserRequest, by user: RequestSender) throws -> CallResponse {
        var call = try loadCall(request.cid)
        try require(.blockUsers, of: user.userId, in: call)
        guard call.blockedUsers.contains(request.userId) else {
            throw ProtocolError(.conflict, "\(request.userId) is not blocked from \(call.cid)")
        }
        call.blockedUsers.removeAll { $0 == request.userId }
        call.updatedAt = Date()
        try save(call)
        let cid = call.cid
        tell(.audienceAnd(users: [request.userId]), in: cid, .userUnblocked(UserBlockEvent(cid: cid, userId: request.userId, byUserId: user.userId)))
        return CallResponse(call: state(of: call, for: user.userId))
    }

    func muteUsers(_ request: MuteUsersRequest, by user: RequestSender) throws -> EmptyResponse {
        let call = try loadCall(request.cid)
        try require(.muteUsers, of: user.userId, in: call)
        let everyoneElse = Set(sessions[call.cid]?.participants.values.map(\.participant.userId) ?? []).subtracting([user.userId])
        let targets = request.muteAllUsers == true ? everyoneElse.sorted() : (request.userIds ?? everyoneElse.sorted())
        guard !targets.isEmpty else { throw ProtocolError(.invalidRequest, "nobody to mute: give userIds or muteAllUsers") }
        // With no track named, muting means the microphone (what a host means by "mute").
        let nothingNamed = request.audio == nil && request.video == nil && request.screenshare == nil
        let event = UsersMutedEvent(
            cid: call.cid, userIds: targets, byUserId: user.userId, audio: request.audio ?? nothingNamed,
            video: request.video ?? false, screenshare: request.screenshare ?? false)
        tell(.audience, in: call.cid, .usersMuted(event))
        return EmptyResponse()
    }

    func kickUser(_ request: KickUserRequest, by user: RequestSender) throws -> CallResponse {
        var call = try loadCall(request.cid)
        try require(.kickUser, of: user.userId, in: call)
        if request.block == true { try require(.blockUsers, of: user.userId, in: call) }
        let kicked = sessions[call.cid]?.participants(ofUser: request.userId) ?? []
        guard !kicked.isEmpty || request.block == true else {
            throw ProtocolError(.participantNotFound, "\(request.userId) is not in \(call.cid)")
        }
        let recipients = audience(of: call.cid, andUser: request.userId)
        for participant in kicked { removeParticipant(participant, from: call.cid, reason: .kicked) }
        let cid = call.cid
        tell(.audienceAnd(users: [request.userId]), in: cid, here: recipients,
             .userKicked(UserKickedEvent(cid: cid, userId: request.userId, byUserId: user.userId)))
        if request.block == true { try block(request.userId, in: &call, by: user) }
        return CallResponse(call: state(of: call, for: user.userId))
    }

    func pin(_ request: PinForEveryoneRequest, by user: RequestSender) throws -> CallResponse {
        try setPin(cid: request.cid, userId: request.userId, sessionId: request.sessionId, pinned: true, by: user)
    }

    func unpin(_ request: UnpinForEveryoneRequest, by user: RequestSender) throws -> CallResponse {
        try setPin(cid: request.cid, userId: request.userId, sessionId: request.sessionId, pinned: false, by: user)
    }

    private func setPin(cid: CallID, userId: String, sessionId: String, pinned: Bool, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(cid)
        try require(.pinForEveryone, of: user.userId, in: call)
        guard let entry = sessions[cid]?.participants[sessionId], entry.participant.userId == userId else {
            throw ProtocolError(.participantNotFound, "no participant \(userId) with session \(sessionId) in \(cid)")
        }
        sessions.setPinned(pinned ? Date() : nil, session: sessionId, in: cid)
        let event = PinEvent(cid: cid, userId: userId, sessionId: sessionId, byUserId: user.userId)
        tell(.audience, in: cid, pinned ? .pinned(event) : .unpinned(event))
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// Takes one device out of the session and tells everyone.
    func removeParticipant(_ entry: LiveSession.Participant, from cid: CallID, reason: LeaveReason) {
        let recipients = audience(of: cid)
        sessions.remove(session: entry.participant.sessionId, from: cid)
        rateLimits.forget(session: entry.participant.sessionId)
        if let token = entry.media?.token {
            revokeMedia(token, in: cid)
            // A participant removed by a moderator may still be sending (a modified or stuck
            // app). Not after a lost connection: the app keeps its media while it reconnects.
            if reason == .kicked || reason == .blocked { ejectMedia(session: entry.participant.sessionId, in: cid) }
        }
        // On other replicas the one who left hears it too (kicked or blocked from here).
        tell(.audienceAnd(users: [entry.participant.userId]), in: cid, here: recipients,
             .participantLeft(ParticipantLeftEvent(cid: cid, participant: entry.participant, reason: reason)))
    }
}
