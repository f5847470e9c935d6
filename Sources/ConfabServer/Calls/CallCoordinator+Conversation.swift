import ConfabProtocol
import Foundation

/// Talking beside the video (issue 18): chat (kept in the store with the call, so it survives
/// a restart and late joiners read it), reactions (relayed, rate-limited, never kept) and
/// raised hands (in the live session, in raising order). Each needs its capability and this
/// device in the call's session; reading the chat needs only `readCall`.
extension CallCoordinator {
    func sendChatMessage(_ request: SendChatMessageRequest, by user: RequestSender) throws -> ChatMessageResponse {
        let call = try loadCall(request.cid)
        try require(.sendChat, of: user.userId, in: call)
        let sender = try participantOnThisDevice(in: call.cid, user, toDo: "sending chat messages")
        guard !request.text.allSatisfy(\.isWhitespace) else {
            throw ProtocolError(.invalidRequest, "text: a chat message needs some text")
        }
        let size = request.text.utf8.count
        guard size <= ChatMessage.maxTextBytes else {
            throw ProtocolError(
                .messageTooLong, "a chat message may hold \(ChatMessage.maxTextBytes) bytes of text; this one has \(size)")
        }
        let message = try store.addChatMessage(
            to: call.cid, userId: user.userId, sessionId: sender.participant.sessionId, text: request.text, at: Date())
        tell(.audience, in: call.cid, .chatMessage(ChatMessageEvent(message: message)))
        return ChatMessageResponse(message: message)
    }

    func chatHistory(_ request: GetChatHistoryRequest, by user: RequestSender) throws -> ChatHistoryResponse {
        let call = try loadCall(request.cid)
        try require(.readCall, of: user.userId, in: call)
        let limit = request.limit ?? GetChatHistoryRequest.maxLimit
        guard (1...GetChatHistoryRequest.maxLimit).contains(limit) else {
            throw ProtocolError(.invalidRequest, "limit: expected 1 to \(GetChatHistoryRequest.maxLimit), got \(limit)")
        }
        // One more than asked for tells whether older messages remain.
        let page = try store.chatMessages(of: call.cid, before: request.before, limit: limit + 1)
        return ChatHistoryResponse(messages: Array(page.suffix(limit)), hasMore: page.count > limit)
    }

    func sendReaction(_ request: SendReactionRequest, by user: RequestSender) throws -> EmptyResponse {
        let call = try loadCall(request.cid)
        try require(.sendReaction, of: user.userId, in: call)
        let sender = try participantOnThisDevice(in: call.cid, user, toDo: "reacting")
        let sessionId = sender.participant.sessionId
        guard rateLimits.reactions.allow(session: sessionId) else {
            throw ProtocolError(.rateLimited, rateLimits.reactions.refusal(of: "reactions"))
        }
        let event = ReactionEvent(cid: call.cid, userId: user.userId, sessionId: sessionId, emoji: request.emoji)
        tell(.audience, in: call.cid, .reaction(event))
        return EmptyResponse()
    }

    func raiseHand(_ request: RaiseHandRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        try require(.raiseHand, of: user.userId, in: call)
        let raiser = try participantOnThisDevice(in: call.cid, user, toDo: "raising a hand")
        let sessionId = raiser.participant.sessionId
        if raiser.participant.raisedHand == nil, let hand = sessions.raiseHand(session: sessionId, in: call.cid, at: Date()) {
            let event = HandEvent(cid: call.cid, userId: user.userId, sessionId: sessionId, raisedHand: hand, byUserId: user.userId)
            tell(.audience, in: call.cid, .handRaised(event))
        }
        return CallResponse(call: state(of: call, for: user.userId))
    }

    /// Your own hands need only that you may read the call; someone else's need `muteUsers`.
    func lowerHand(_ request: LowerHandRequest, by user: RequestSender) throws -> CallResponse {
        let call = try loadCall(request.cid)
        let target = request.userId ?? user.userId
        let ownHand = target == user.userId
        try require(ownHand ? .readCall : .muteUsers, of: user.userId, in: call)
        let theirs = sessions[call.cid]?.participants(ofUser: target) ?? []
        if !ownHand, theirs.isEmpty {
            throw ProtocolError(.participantNotFound, "\(target) is not in \(call.cid)")
        }
        for entry in theirs.sorted(by: { $0.participant.sessionId < $1.participant.sessionId })
        where entry.participant.raisedHand != nil {
            let sessionId = entry.participant.sessionId
            sessions.lowerHand(session: sessionId, in: call.cid)
            let event = HandEvent(cid: call.cid, userId: target, sessionId: sessionId, raisedHand: nil, byUserId: user.userId)
            tell(.audience, in: call.cid, .handLowered(event))
        }
        return CallResponse(call: state(of: call, for: user.userId))
    }
}
