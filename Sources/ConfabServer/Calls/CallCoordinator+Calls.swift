import ConfabProtocol
import Foundation

/// Call lifecycle and membership requests: create, read, join, leave, end, update, members.
/// Each validates everything before it changes anything, so a refused request leaves no trace
/// — except that a right link secret is remembered even when a later check refuses the request
/// (the secret was right either way; see `requireReadable`).
extension CallCoordinator {
    func getOrCreateCall(_ request: GetOrCreateCallRequest, by user: RequestSender) throws -> GetOrCreateCallResponse {
        for member in request.members ?? [] { try UserID.validate(member.userId) }
        var created = false
        var call: StoredCall
        if let existing = try existingCall(request.cid) {
            call = existing
            // Getting an existing call is reading it, under the same rules as getCall: its
            // members, custom data and host stay as they are, so whoever created an id first
            // keeps it and a latecomer who may not read it is refused (`privateCall`).
            try requireReadable(call, by: user.userId, linkSecret: request.linkSecret)
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
            call.askToJoin = request.askToJoin ?? false
            created = true
        }
        if request.ring == true {
            // Checked before saving a new call, so a ring nobody can receive creates nothing.
            _ = try ringTargets(in: call, requested: nil, caller: user.userId)
        }
        if created {
            try save(call)
            tell(.audience, about: call.cid, here: audience(of: call.cid).union([user.connection.id])) {
                .callCreated(CallChangedEvent(call: $0))
            }
        }
        sessions.watch(call.cid, from: user.connection.id)
        if request.ring == true {
            try startRing(call.cid, memberIds: nil, video: request.video ?? false, by: user)
        }
        return GetOrCreateCallResponse(call: state(of: call.cid, for: user.userId, fallback: call), created: created)
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
    /// `blockedFromCall`, a stranger without the link `privateCall`, and nothing of the call.
    func getCall(_ request: GetCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        try requireReadable(call, by: user.userId, linkSecret: request.linkSecret)
        try require(.readCall, of: user.userId, in: call)
        sessions.watch(call.cid, from: user.connection.id)
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
        if let old = sessions.replaceMedia(of: sessionId, in: cid, with: endpoint) { revokeMedia(old.token, in: cid) }
        return JoinCallResponse(call: state(of: call, for: user.userId), sessionId: sessionId, media: endpoint)
    }

    /// The call as a join would find it (made or reopened when asked for), after every check;
    /// changes nothing, except that a join refused for the waiting room knocks.
    private func callToJoin(_ request: JoinCallRequest, by user: RequestSender) throws -> (call: StoredCall, created: Bool) {
        var call: StoredCall
        var created = false
        if let existing = try existingCall(request.cid) {
            call = existing
            // Before anything else, so a stranger does not learn whether it has ended.
            do {
                try requireReadable(call, by: user.userId, linkSecret: request.linkSecret)
            } catch let refusal as ProtocolError where refusal.code == .waitingForHost {
                // Joining a call that asks to join is knocking: no session and no media until
                // a host lets them in.
                knock(user, at: call)
                throw refusal
            }
        } else if request.create == true {
            call = newCall(request.cid, by: user.userId, members: [], custom: [:], startsAt: nil)
            created = true
        } else {
            throw ProtocolError(.callNotFound, "call \(request.cid) does not exist (join with create: true to make it)")
        }
        let capabilities = capabilities(of: user.userId, in: call)
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
        guard connections.isOpen(user.connection.id) else {
            throw ProtocolError(.internalError, "connection closed during join")
        }
        return (call, created)
    }

    /// Makes the connection a participant (or returns its existing participation).
    private func admit(_ user: RequestSender, to request: JoinCallRequest, media: MediaEndpoint?) throws -> JoinCallResponse {
        let (call, created) = try callToJoin(request, by: user)
        if created {
            try save(call)
            tell(.audience, about: call.cid, here: audience(of: call.cid).union([user.connection.id])) {
                .callCreated(CallChangedEvent(call: $0))
            }
        }
        sessions.watch(call.cid, from: user.connection.id)
        if let existing = sessions[call.cid]?.participant(onConnection: user.connection.id) {
            setMediaState(microphoneOn: request.microphoneOn, cameraOn: request.cameraOn, of: existing.participant, in: call.cid)
            return JoinCallResponse(
                call: state(of: call, for: user.userId), sessionId: existing.participant.sessionId, media: existing.media)
        }
        let participant = CallParticipant(
            userId: user.userId, sessionId: UUID().uuidString.lowercased(), role: call.role(of: user.userId) ?? .user,
            joinedAt: Date(), microphoneOn: request.microphoneOn, cameraOn: request.cameraOn)
        sessions.add(.init(participant: participant, connectionId: user.connection.id, media: media), to: call.cid)
        metrics.participantJoined()
        // Knocking still, but let in another way (a host made them a member): off the list.
        if waitingRoom.removeKnock(of: user.userId, at: call.cid) {
            knockResolved(call.cid, userId: user.userId, outcome: .admitted, by: nil)
        }
        // Joining a call you are being rung for answers the ring, as in stream-video.
        if let ring = rings.ring(of: call.cid), ring.memberIds.contains(user.userId),
           !isAcceptance(rings.answer(of: user.userId, in: call.cid)) {
            recordAcceptance(in: call.cid, by: user)
        }
        tell(.audience, in: call.cid, .participantJoined(ParticipantJoinedEvent(cid: call.cid, participant: participant)))
        return JoinCallResponse(call: state(of: call, for: user.userId), sessionId: participant.sessionId, media: media)
    }

    private func isAcceptance(_ answer: RingAnswer?) -> Bool {
        if case .accepted = answer { true } else { false }
    }

    func leaveCall(_ request: LeaveCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        // A knocker who stops waiting (leaves the lobby) is taken off the hosts' list; the
        // refusal below still tells them nothing of the call.
        if waitingRoom.withdraw(user.userId, connection: user.connection.id, at: call.cid) {
            knockResolved(call.cid, userId: user.userId, outcome: .withdrawn, by: nil)
        }
        // The answer carries the call: not for a blocked user (blocking already took them out).
        try require(.readCall, of: user.userId, in: call)
        if let participant = sessions[call.cid]?.participant(onConnection: user.connection.id) {
            removeParticipant(participant, from: call.cid, reason: .left)
        }
        // Hanging up while still ringing (nobody accepted) cancels the ring: stream-video's
        // OutgoingRingCreationCoordinator settles this race on the client; the server settles it here.
        if let ring = rings.ring(of: call.cid), ring.callerId == user.userId, !rings.anyoneAccepted(call.cid),
           sessions[call.cid]?.participants(ofUser: user.userId).isEmpty ?? true {
            try cancelRing(call.cid, by: user.userId, connectionId: user.connection.id, reason: .cancel)
        }
        return CallResponse(call: state(of: call.cid, for: user.userId, fallback: call))
    }

    func endCall(_ request: EndCallRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        try require(.endCall, of: user.userId, in: call)
        guard call.endedAt == nil else { throw ProtocolError(.callEnded, "call \(call.cid) has already ended") }
        try finishCall(call.cid, reason: .ended, endedBy: user.userId)
        return CallResponse(call: state(of: call.cid, for: user.userId, fallback: call))
    }

    func updateCall(_ request: UpdateCallRequest, by user: RequestSender) throws -> CallResponse {
        var call = try loadCall(request.cid)
        try require(.updateCall, of: user.userId, in: call)
        try call.requireNotEnded()
        if let custom = request.custom { call.custom = custom }
        if let startsAt = request.startsAt { call.startsAt = startsAt }
        if let backstage = request.backstage { call.backstage = backstage }
        if let askToJoin = request.askToJoin {
            if askToJoin, !call.askToJoin {
                // Whoever is in the call when the waiting room opens stays in it.
                for userId in sessions[call.cid]?.participants.values.map(\.participant.userId) ?? [] {
                    waitingRoom.admitWithoutKnock(userId, to: call.cid)
                }
            }
            call.askToJoin = askToJoin
        }
        call.updatedAt = Date()
        try save(call)
        tell(.audience, about: call.cid) { .callUpdated(CallChangedEvent(call: $0)) }
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
        tell(.audience, about: call.cid) { .membersAdded(MembersAddedEvent(call: $0, members: changed)) }
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
        let removedDevices = recipients.filter { connections.userId(of: $0).map(request.userIds.contains) ?? false }
        tell(.audience, about: call.cid, here: recipients.subtracting(removedDevices)) {
            .membersRemoved(MembersRemovedEvent(call: $0, userIds: request.userIds))
        }
        // They may no longer read the call, so `emit(to:about:)` would skip them; they are told
        // anyway, with the call as a non-member sees it (no link, no capabilities).
        emit(to: removedDevices) { userId in
            .membersRemoved(MembersRemovedEvent(call: state(of: call, for: userId), userIds: request.userIds))
        }
        // On other replicas too: the call as a non-member sees it is the same for each of them.
        if let removed = request.userIds.first {
            relay(.users(request.userIds), in: call.cid,
                  .membersRemoved(MembersRemovedEvent(call: state(of: call, for: removed), userIds: request.userIds)))
        }
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// A new link secret: the old link (leaked, or given to someone who should no longer come)
    /// stops working, and those it let in lose the call, as if kicked.
    func resetCallLink(_ request: ResetCallLinkRequest, by user: RequestSender) throws -> CallResponse {
        var call = try loadCall(request.cid)
        try require(.updateCall, of: user.userId, in: call)
        call.linkSecret = .random()
        call.updatedAt = Date()
        try save(call)
        // Out of the session while they are still link holders, so they hear that they left.
        let holders = calls.linkHolders(of: call.cid)
        let admittedByLink = sessions[call.cid]?.participants.values.filter { holders.contains($0.participant.userId) } ?? []
        for participant in admittedByLink {
            removeParticipant(participant, from: call.cid, reason: .kicked)
        }
        calls.forgetLinkHolders(of: call.cid)
        waitingRoom.forgetAdmissions(to: call.cid)
        tell(.audience, about: call.cid) { .callUpdated(CallChangedEvent(call: $0)) }
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// Ends the call: saved as ended, ring stopped, session emptied, everyone told.
    func finishCall(_ cid: CallID, reason: CallEndReason, endedBy: String?) throws {
        var call = try loadCall(cid)
        let ringing = rings.ring(of: cid)?.memberIds ?? []
        let recipients = audience(of: cid).union(ringing.flatMap { connections(ofUser: $0) })
        let now = Date()
        call.endedAt = now
        call.updatedAt = now
        call.recording = false
        call.broadcasting = false
        try save(call)
        rings.stop(cid)
        for sessionId in sessions[cid]?.participants.keys.sorted() ?? [] { rateLimits.forget(session: sessionId) }
        sessions.removeEveryParticipant(of: cid)
        // Before the room goes, so what was recorded is converted and the broadcast stops.
        endRecording(of: cid)
        endBroadcast(of: cid)
        closeMediaRoom(of: cid)
        tell(.audienceAnd(users: ringing), about: cid, here: recipients) { .callEnded(CallEndedEvent(call: $0, reason: reason, endedBy: endedBy)) }
        // An ended call has no session: its watchers stop hearing about it, and it can leave
        // memory (`evictIdleCalls`). Reopening it (a new ring, a host's join) starts a new one.
        endSession(of: cid)
    }
}
