import FoundationEssentials

/// One message of a call's chat, as the server stored it: the server gives the id (ordered:
/// a later message has a larger id), the sender and the time, so no client can forge them.
public struct ChatMessage: Codable, Sendable, Hashable {
    /// The most a message's text may hold, in bytes of UTF-8 (a longer one is `messageTooLong`).
    public static let maxTextBytes = 4096

    public var id: Int64
    public var cid: CallID
    public var userId: String
    /// The device it was sent from; nil if that is not known.
    public var sessionId: String?
    public var text: String
    public var createdAt: Date

    public init(id: Int64, cid: CallID, userId: String, sessionId: String?, text: String, createdAt: Date) {
        self.id = id
        self.cid = cid
        self.userId = userId
        self.sessionId = sessionId
        self.text = text
        self.createdAt = createdAt
    }
}
