/// The call's chat so far, for someone who may read the call (a late joiner): the newest
/// `limit` messages (default and most: `maxLimit`) older than the message `before`, oldest
/// first. Page back by passing the first id received as the next `before`.
public struct GetChatHistoryRequest: ConfabRequest, Hashable {
    public static let type = RequestType.getChatHistory
    public typealias Response = ChatHistoryResponse
    public static let maxLimit = 200

    public var cid: CallID
    public var before: Int64?
    public var limit: Int?

    public init(cid: CallID, before: Int64? = nil, limit: Int? = nil) {
        self.cid = cid
        self.before = before
        self.limit = limit
    }
}

public struct ChatHistoryResponse: Codable, Sendable, Hashable {
    /// Oldest first.
    public var messages: [ChatMessage]
    /// True when older messages remain (ask again with `before` = the first id here).
    public var hasMore: Bool

    public init(messages: [ChatMessage], hasMore: Bool) {
        self.messages = messages
        self.hasMore = hasMore
    }
}
