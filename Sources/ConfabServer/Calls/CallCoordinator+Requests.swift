import ConfabProtocol
import Foundation

/// Call lifecycle, membership and moderation requests. Each validates everything before it
/// changes anything, so a refused request leaves no trace.
extension CallCoordinator {
    func getOrCreateCall(_ request: GetOrCreateCallRequest, by user: RequestSender) throws -> GetOrCreateCallResponse {
        for member in request.members ?? [] { try UserID.validate(member.userId) }
        var created = false
        var call: StoredCall
        if let existing = try existingCall(request.cid) {
            call = existing
            // Getting an existing call is reading it.
            try require(.readCall, of: user.userId, in: call)
            if call.endedAt != nil, request.ring == true {
                // Ringing an ended call again starts a new session on it, so "call Bob" can reuse a cid.
                try require(.ringCall, of: user.userId, in: call)
                call.endedAt = nil
                call.updatedAt = Date()
                created = true
            }
        } else {
            call = newCall(request.cid, by: user.userId, members: request.members ?? [], custom: request.custom ?? [:],
                           startsAt: request.startsAt)
            created = true
        }
        if request.ring == true {
            // Checked before saving a new call, so a ring nobody can receive creates nothing.
            _ = try ringTargets(in: call, requested: nil, caller: user.userId)
        }
        if created {
            try save(call)
            emit(to: audience(of: call.cid).union([user.connection.id]), about: call.cid) { .callCreated(CallChangedEvent(call: $0)) }
        }
        sessions[call.cid, default: LiveSession()].watchers.insert(user.connection.id)
        if request.ring == true {
            try startRing(call.cid, memberIds: nil, video: request.video ?? false, by: user)
        }
        return GetOrCreateCallResponse(call: state(of: call.cid, for: user.userId) ?? state(of: call, for: user.userId),
                                       created: created)
    }

    private func newCall(
        _ cid: CallID, by userId: String, members: [MemberRequest], custom: [String: JSONValue], startsAt: Date?
    ) -> StoredCall {
        let now = Date()
        var call = StoredCall(cid: cid, createdBy: userId, createdAt: now, updatedAt: now, startsAt: startsAt, custom: custom)
        call.upsertMember(userId, role: .host, at: now)
        for member in members where member.userId != userId {
            call.upsertMember(member.userId, role: member.role ?? .user, at: now)
        }
        return call
    }

    /// Reading a call (and so subscribing to its events) needs `readCall`: a blocked user gets
    /// `blockedFromCall` and nothing of the call.
    func getCall(_ request: GetCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        try require(.readCall, of: user.userId, in: call)
        sessions[call.cid, default: LiveSession()].watchers.insert(user.connection.id)
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// Joins the call, with a Janus token when media is on. Everything is checked before Janus
    /// is asked, so a refused join creates no room; Janus is asked before anything changes, so
    /// a join Janus cannot serve leaves no trace either (and works once Janus is back). Other
    /// requests run during that wait, which is why the join is checked again before it commits.
    func joinCall(_ request: JoinCallRequest, by user: RequestSender) async throws -> JoinCallResponse {
        guard let media else { return try admit(user, to: request, media: nil) }
        _ = try callToJoin(request, by: user)
        if let existing = sessions[request.cid]?.participant(onConnection: user.connection.id) {
            guard request.renewMedia == true else { return try admit(user, to: request, media: nil) }
            return try await renewMedia(of: existing, in: request.cid, for: user)
        }
        let cid = request.cid
        let endpoint: MediaEndpoint
        do {
            endpoint = try await inMediaOrder(for: cid) { try await media.admit(to: cid) }.value
        } catch {
            logger.error("janus could not admit a participant", metadata: ["cid": "\(cid)", "error": "\(error)"])
            throw ProtocolError(.internalError, "the media server (Janus) is unavailable, so \(cid) cannot be joined now: \(error). Try again shortly.")
        }
        let response: JoinCallResponse
        do {
            response = try admit(user, to: request, media: endpoint)
        } catch {
            revokeMedia(endpoint.token, in: cid)
            throw error
        }
        // Joined twice at once from one connection: the first join's token stands.
        if response.media != endpoint { revokeMedia(endpoint.token, in: cid) }
        return response
    }

    /// A new media endpoint for a participant already in the call whose old one stopped working
    /// (Janus restarted: the room, and the token with it, are gone). Same session; the old token
    /// is revoked.
    private func renewMedia(of participant: LiveSession.Participant, in cid: CallID,
                            for user: RequestSender) async throws -> JoinCallResponse {
        guard let media else { throw ProtocolError(.invalidRequest, "this server sends no media") }
        let endpoint: MediaEndpoint
        do {
            endpoint = try await inMediaOrder(for: cid) { try await media.admit(to: cid) }.value
        } catch {
            throw ProtocolError(.internalError, "the media server (Janus) is unavailable: \(error). Try again shortly.")
        }
        let sessionId = participant.participant.sessionId
        // The participant may have left while Janus was asked.
        guard sessions[cid]?.participants[sessionId] != nil, let call = try existingCall(cid) else {
            revokeMedia(endpoint.token, in: cid)
            throw ProtocolError(.participantNotFound, "you are no longer in \(cid)")
        }
        let old = sessions[cid]?.participants[sessionId]?.media
        sessions[cid]?.participants[sessionId]?.media = endpoint
        if let old { revokeMedia(old.token, in: cid) }
        return JoinCallResponse(call: state(of: call, for: user.userId), sessionId: sessionId, media: endpoint)
    }

    /// The call as a join would find it (made or reopened when asked for), after every check;
    /// changes nothing.
    private func callToJoin(_ request: JoinCallRequest, by user: RequestSender) throws -> (call: StoredCall, created: Bool) {
        var call: StoredCall
        var created = false
        if let existing = try existingCall(request.cid) {
            call = existing
        } else if request.create == true {
            call = newCall(request.cid, by: user.userId, members: [], custom: [:], startsAt: nil)
            created = true
        } else {
            throw ProtocolError(.callNotFound, "call \(request.cid) does not exist (join with create: true to make it)")
        }
        let capabilities = CallPermissions.capabilities(of: user.userId, in: call)
        if call.endedAt != nil {
            guard request.create == true, capabilities.contains(.updateCall) else {
                throw ProtocolError(.callEnded, "call \(call.cid) has ended")
            }
            call.endedAt = nil
            call.updatedAt = Date()
            created = true
        }
        try require(.joinCall, of: user.userId, in: call)
        if call.backstage, !capabilities.contains(.joinBackstage) {
            throw ProtocolError(.forbidden, "call \(call.cid) is in backstage: only hosts can join (needs joinBackstage)")
        }
        guard clients[user.connection.id] != nil else {
            throw ProtocolError(.internalError, "connection closed during join")
        }
        return (call, created)
    }

    /// Makes the connection a participant (or returns its existing participation).
    private func admit(_ user: RequestSender, to request: JoinCallRequest, media: MediaEndpoint?) throws -> JoinCallResponse {
        let (call, created) = try callToJoin(request, by: user)
        if created {
            try save(call)
            emit(to: audience(of: call.cid).union([user.connection.id]), about: call.cid) { .callCreated(CallChangedEvent(call: $0)) }
        }
        var session = sessions[call.cid, default: LiveSession()]
        session.watchers.insert(user.connection.id)
        if let existing = session.participant(onConnection: user.connection.id) {
            sessions[call.cid] = session
            return JoinCallResponse(
                call: state(of: call, for: user.userId), sessionId: existing.participant.sessionId, media: existing.media)
        }
        let participant = CallParticipant(
            userId: user.userId, sessionId: UUID().uuidString.lowercased(), role: call.role(of: user.userId) ?? .user,
            joinedAt: Date())
        session.participants[participant.sessionId] = .init(participant: participant, connectionId: user.connection.id, media: media)
        sessions[call.cid] = session
        // Joining a call you are being rung for answers the ring, as in stream-video.
        if let ring = session.ring, ring.memberIds.contains(user.userId), session.acceptedBy[user.userId] == nil {
            recordAcceptance(in: call.cid, by: user)
        }
        emit(to: audience(of: call.cid), about: call.cid) { _ in
            .participantJoined(ParticipantJoinedEvent(cid: call.cid, participant: participant))
        }
        return JoinCallResponse(call: state(of: call, for: user.userId), sessionId: participant.sessionId, media: media)
    }

    func leaveCall(_ request: LeaveCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        // The answer carries the call: not for a blocked user (blocking already took them out).
        try require(.readCall, of: user.userId, in: call)
        if let participant = sessions[call.cid]?.participant(onConnection: user.connection.id) {
            removeParticipant(participant, from: call.cid, reason: .left)
        }
        // Hanging up while still ringing (nobody accepted) cancels the ring: stream-video's
        // OutgoingRingCreationCoordinator settles this race on the client; the server settles it here.
        if let session = sessions[call.cid], let ring = session.ring, ring.callerId == user.userId,
           session.acceptedBy.isEmpty, session.participants(ofUser: user.userId).isEmpty {
            try cancelRing(call.cid, by: user.userId, connectionId: user.connection.id, reason: .cancel)
        }
        return CallResponse(call: state(of: call.cid, for: user.userId) ?? state(of: call, for: user.userId))
    }

    func endCall(_ request: EndCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        try require(.endCall, of: user.userId, in: call)
        guard call.endedAt == nil else { throw ProtocolError(.callEnded, "call \(call.cid) has already ended") }
        try finishCall(call.cid, reason: .ended, endedBy: user.userId)
        return CallResponse(call: state(of: call.cid, for: user.userId) ?? state(of: call, for: user.userId))
    }

    func updateCall(_ request: UpdateCallRequest, by user: RequestSender) throws -> CallResponse {
        var call = try loadCall(request.cid)
        try require(.updateCall, of: user.userId, in: call)
        guard call.endedAt == nil else { throw ProtocolError(.callEnded, "call \(call.cid) has ended") }
        if let custom = request.custom { call.custom = custom }
        if let startsAt = request.startsAt { call.startsAt = startsAt }
        if let backstage = request.backstage { call.backstage = backstage }
        call.updatedAt = Date()
        try save(call)
        emit(to: audience(of: call.cid), about: call.cid) { .callUpdated(CallChangedEvent(call: $0)) }
        return CallResponse(call: state(of: call, for: user.userId))
    }

    func addMembers(_ request: AddMembersRequest, by user: RequestSender) throws -> CallResponse {
        var call = try loadCall(request.cid)
        try require(.updateCallMember, of: user.userId, in: call)
        guard !request.members.isEmpty else { throw ProtocolError(.invalidRequest, "members: expected at least one member") }
        for member in request.members { try UserID.validate(member.userId) }
        let now = Date()
        let changed = request.members.map { call.upsertMember($0.userId, role: $0.role ?? .user, at: now) }
        call.updatedAt = now
        try save(call)
        emit(to: audience(of: call.cid), about: call.cid) { .membersAdded(MembersAddedEvent(call: $0, members: changed)) }
        return CallResponse(call: state(of: call, for: user.userId))
    }

    func removeMembers(_ request: RemoveMembersRequest, by user: RequestSender) throws -> CallResponse {
        var call = try loadCall(request.cid)
        try require(.removeCallMember, of: user.userId, in: call)
        let unknown = request.userIds.filter { !call.isMember($0) }
        guard unknown.isEmpty else {
            throw ProtocolError(.notAMember, "not members of \(call.cid): \(unknown.joined(separator: ", "))")
        }
        // The removed members hear about it too, so computed before they are gone.
        let recipients = audience(of: call.cid)
        call.members.removeAll { request.userIds.contains($0.userId) }
        call.updatedAt = Date()
        try save(call)
        emit(to: recipients, about: call.cid) { .membersRemoved(MembersRemovedEvent(call: $0, userIds: request.userIds)) }
        return CallResponse(call: state(of: call, for: user.userId))
    }

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
        let recipients = audience(of: call.cid).union(connections(ofUser: userId))
        for participant in sessions[call.cid]?.participants(ofUser: userId) ?? [] {
            removeParticipant(participant, from: call.cid, reason: .blocked)
        }
        let cid = call.cid
        emit(to: recipients) { _ in .userBlocked(UserBlockEvent(cid: cid, userId: userId, byUserId: user.userId)) }
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
        emit(to: audience(of: cid).union(connections(ofUser: request.userId))) { _ in
            .userUnblocked(UserBlockEvent(cid: cid, userId: request.userId, byUserId: user.userId))
        }
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
        emit(to: audience(of: call.cid)) { _ in .usersMuted(event) }
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
        let recipients = audience(of: call.cid).union(connections(ofUser: request.userId))
        for participant in kicked { removeParticipant(participant, from: call.cid, reason: .kicked) }
        let cid = call.cid
        emit(to: recipients) { _ in .userKicked(UserKickedEvent(cid: cid, userId: request.userId, byUserId: user.userId)) }
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
        sessions[cid]?.participants[sessionId]?.participant.pinnedAt = pinned ? Date() : nil
        let event = PinEvent(cid: cid, userId: userId, sessionId: sessionId, byUserId: user.userId)
        emit(to: audience(of: cid)) { _ in pinned ? .pinned(event) : .unpinned(event) }
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// Takes one device out of the session and tells everyone.
    func removeParticipant(_ entry: LiveSession.Participant, from cid: CallID, reason: LeaveReason) {
        let recipients = audience(of: cid)
        sessions[cid]?.participants[entry.participant.sessionId] = nil
        if let token = entry.media?.token {
            revokeMedia(token, in: cid)
            // A participant removed by a moderator may still be sending (a modified or stuck
            // app). Not after a lost connection: the app keeps its media while it reconnects.
            if reason == .kicked || reason == .blocked { ejectMedia(session: entry.participant.sessionId, in: cid) }
        }
        emit(to: recipients) { _ in
            .participantLeft(ParticipantLeftEvent(cid: cid, participant: entry.participant, reason: reason))
        }
    }
}
