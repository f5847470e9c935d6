import ConfabCore
import ConfabProtocol

/// Host actions; the coordinator refuses them without the matching capability.
extension CoordinatorClient {
    public func muteUser(_ userID: String, in call: CallID) async throws {
        _ = try await send(MuteUsersRequest(cid: call, userIds: [userID], audio: true))
    }

    public func blockUser(_ userID: String, in call: CallID) async throws {
        _ = try await send(BlockUserRequest(cid: call, userId: userID))
    }

    public func unblockUser(_ userID: String, in call: CallID) async throws {
        _ = try await send(UnblockUserRequest(cid: call, userId: userID))
    }

    public func kickUser(_ userID: String, in call: CallID) async throws {
        _ = try await send(KickUserRequest(cid: call, userId: userID))
    }

    public func setRole(_ role: CallRole, of userID: String, in call: CallID) async throws {
        _ = try await send(AddMembersRequest(cid: call, members: [MemberRequest(userId: userID, role: role)]))
    }

    public func pinForEveryone(_ participant: ConfabCore.CallParticipant, in call: CallID) async throws {
        _ = try await send(PinForEveryoneRequest(cid: call, userId: participant.user.id, sessionId: participant.sessionID))
    }

    public func unpinForEveryone(_ participant: ConfabCore.CallParticipant, in call: CallID) async throws {
        _ = try await send(UnpinForEveryoneRequest(cid: call, userId: participant.user.id, sessionId: participant.sessionID))
    }
}
