/// `call.reaction`: a participant reacted; shown over their tile for a moment, never stored.
public struct ReactionEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var sessionId: String
    public var emoji: Reaction

    public init(cid: CallID, userId: String, sessionId: String, emoji: Reaction) {
        self.cid = cid
        self.userId = userId
        self.sessionId = sessionId
        self.emoji = emoji
    }
}
