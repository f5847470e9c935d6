import ConfabCore
import ConfabProtocol

/// Host actions; the coordinator refuses them without the matching capability.
extension CoordinatorClient {
    public func muteUser(_ userID: String, in call: ConfabCore.CallID) async throws {
        _ = try await send(MuteUsersRequest(cid: try call.wireID(), userIds: [userID], audio: true))
    }

    public func blockUser(_ userID: String, in call: ConfabCore.CallID) async throws {
        _ = try await send(BlockUserRequest(cid: try call.wireID(), userId: userID))
    }

    public func unblockUser(_ userID: String, in call: ConfabCore.CallID) async throws {
        _ = try await send(UnblockUserRequest(cid: try call.wireID(), userId: userID))
    }

    public func kickUser(_ userID: String, in call: ConfabCore.CallID) async throws {
        _ = try await send(KickUserRequest(cid: try call.wireID(), userId: userID))
    }

    public func pinForEveryone(_ participant: ConfabCore.CallParticipant, in call: ConfabCore.CallID) async throws {
        _ = try await send(PinForEveryoneRequest(cid: try call.wireID(), userId: participant.user.id, sessionId: participant.sessionID))
    }

    public func unpinForEveryone(_ participant: ConfabCore.CallParticipant, in call: ConfabCore.CallID) async throws {
        _ = try await send(UnpinForEveryoneRequest(cid: try call.wireID(), userId: participant.user.id, sessionId: participant.sessionID))
    }
}
