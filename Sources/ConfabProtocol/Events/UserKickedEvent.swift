/// `call.kicked_user` (also sent to the kicked user's devices).
public struct UserKickedEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var byUserId: String

    public init(cid: CallID, userId: String, byUserId: String) {
        self.cid = cid
        self.userId = userId
        self.byUserId = byUserId
    }
}
