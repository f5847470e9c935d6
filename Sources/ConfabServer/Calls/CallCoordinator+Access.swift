import ConfabProtocol

/// Who may see and do what in a call (issue 16, item 8): its members (by role), people who
/// presented its link secret (as plain users), nobody else — a blocked user not even with the
/// link. Every request that touches a call passes `requireReadable` (through `require`) before
/// it reads or changes anything, so a stranger learns only that the call exists, which the
/// shared id space tells anyone who tries to create it anyway.
extension CallCoordinator {
    func access(of userId: String, to call: StoredCall) -> CallAccess {
        if call.blockedUsers.contains(userId) { return .blocked }
        if let role = call.role(of: userId) { return .member(role) }
        let holdsLink = calls.holdsLink(userId, to: call.cid)
        // A call that asks to join lets in, of those who are not members, whoever a host
        // admitted — link holders too (the link says where the door is, not that it is open).
        // A stranger without the link cannot knock, unless this server lets strangers in.
        guard call.askToJoin, holdsLink || settings.openCalls else { return holdsLink ? .linkHolder : .stranger }
        if waitingRoom.isDenied(userId, from: call.cid) { return .denied }
        guard waitingRoom.isAdmitted(userId, to: call.cid) else { return .waiting }
        return holdsLink ? .linkHolder : .stranger
    }

    /// What `userId` may do in `call` — the one place the coordinator asks.
    func capabilities(of userId: String, in call: StoredCall) -> Set<OwnCapability> {
        CallPermissions.capabilities(of: access(of: userId, to: call), in: call.cid.type, openCalls: settings.openCalls)
    }

    /// True when `userId` may see the call (its members, custom data, session, link and events).
    func mayRead(_ call: StoredCall, _ userId: String) -> Bool {
        capabilities(of: userId, in: call).contains(.readCall)
    }

    /// Throws unless `userId` may read the call: `blockedFromCall` for a blocked user, and
    /// `privateCall` for anyone else who may not. A stranger who presents the right
    /// `linkSecret` is let in, as a link holder from now on.
    func requireReadable(_ call: StoredCall, by userId: String, linkSecret: String? = nil) throws {
        switch access(of: userId, to: call) {
        case .blocked:
            throw ProtocolError(.blockedFromCall, "\(userId) is blocked from \(call.cid)")
        case .member, .linkHolder:
            return
        case .waiting:
            throw ProtocolError(
                .waitingForHost, "call \(call.cid) asks to join: join it to knock, and wait for a host to let you in")
        case .denied:
            throw ProtocolError(.joinDenied, "a host of \(call.cid) did not let you in")
        case .stranger:
            if settings.openCalls { return }
            guard let linkSecret else {
                throw ProtocolError(
                    .privateCall,
                    "call \(call.cid) exists and is private: ask one of its hosts to add you, or open the call's link")
            }
            guard call.linkSecret.matches(linkSecret) else {
                throw ProtocolError(
                    .privateCall,
                    "call \(call.cid) exists and is private, and the link's secret is not its secret (an old or mistyped link?)")
            }
            calls.admitLinkHolder(userId, to: call.cid)
            // In a call that asks to join, the link only leads to the waiting room.
            if call.askToJoin { try requireReadable(call, by: userId) }
        }
    }

    /// Throws unless `userId` may read the call and has `capability` in it (`forbidden`, naming it).
    func require(_ capability: OwnCapability, of userId: String, in call: StoredCall) throws {
        try requireReadable(call, by: userId)
        guard capabilities(of: userId, in: call).contains(capability) else {
            let access = access(of: userId, to: call).name
            throw ProtocolError(.forbidden, "\(userId) (\(access)) lacks capability \(capability.rawValue) in \(call.cid)")
        }
    }

    /// This connection's participant in the call, or `notInCall`: what a request that speaks
    /// for a device in the call (chat, reactions, hands, video views) needs besides `require`.
    func participantOnThisDevice(in cid: CallID, _ user: RequestSender, toDo what: String) throws -> LiveSession.Participant {
        guard let participant = sessions[cid]?.participant(onConnection: user.connection.id) else {
            throw ProtocolError(.notInCall, "join \(cid) from this device before \(what)")
        }
        return participant
    }
}
