import ConfabCore
import ConfabProtocol

/// Chat, reactions, raised hands and the waiting room (issue 18). What others do arrives as
/// `ServerEvent`s (`.chatMessage`, `.reaction`, `.handRaised`, …) through
/// `setServerEventObserver`; the coordinator refuses what the user's capabilities do not allow.
extension CoordinatorClient {
    /// Sends a chat message (up to `ChatMessage.maxTextBytes` bytes); returns it as stored.
    public func sendChatMessage(_ text: String, in call: CallID) async throws -> ChatMessage {
        try await send(SendChatMessageRequest(cid: call, text: text)).message
    }

    /// The newest messages older than `before` (all of the newest when nil), oldest first.
    public func chatHistory(in call: CallID, before: Int64? = nil, limit: Int? = nil) async throws -> ChatHistoryResponse {
        try await send(GetChatHistoryRequest(cid: call, before: before, limit: limit))
    }

    public func chatMessages(in call: CallID) async throws -> [ChatMessage] {
        try await chatHistory(in: call).messages
    }

    public func sendReaction(_ reaction: Reaction, in call: CallID) async throws {
        _ = try await send(SendReactionRequest(cid: call, emoji: reaction))
    }

    public func raiseHand(in call: CallID) async throws -> CallSnapshot {
        try await remember(send(RaiseHandRequest(cid: call)).call)
    }

    /// Lowers your own hand, or (hosts: `muteUsers`) `userID`'s.
    public func lowerHand(in call: CallID, of userID: String? = nil) async throws -> CallSnapshot {
        try await remember(send(LowerHandRequest(cid: call, userId: userID)).call)
    }

    /// Turns the call's waiting room on or off (hosts: `updateCall`).
    public func setAskToJoin(_ askToJoin: Bool, in call: CallID) async throws -> CallSnapshot {
        try await remember(send(UpdateCallRequest(cid: call, askToJoin: askToJoin)).call)
    }

    public func admitParticipant(_ userID: String, to call: CallID) async throws -> CallSnapshot {
        try await remember(send(AdmitParticipantRequest(cid: call, userId: userID)).call)
    }

    public func denyParticipant(_ userID: String, from call: CallID) async throws -> CallSnapshot {
        try await remember(send(DenyParticipantRequest(cid: call, userId: userID)).call)
    }

    /// How large this device shows the others' cameras (`UpdateVideoViewsRequest`).
    public func updateVideoViews(_ views: [String: VideoSize], in call: CallID) async throws {
        let wire = views.sorted { $0.key < $1.key }.map { VideoView(sessionId: $0.key, width: $0.value.width, height: $0.value.height) }
        _ = try await send(UpdateVideoViewsRequest(cid: call, views: wire))
    }
}
