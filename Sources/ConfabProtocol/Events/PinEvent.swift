/// `call.pinned` / `call.unpinned`: a participant session pinned or unpinned for everyone.
public struct PinEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var sessionId: String
    public var byUserId: String

    public init(cid: CallID, userId: String, sessionId: String, byUserId: String) {
        self.cid = cid
        self.userId = userId
        self.sessionId = sessionId
        self.byUserId = byUserId
    }
}
