/// `call.blocked_user` / `call.unblocked_user` (also sent to the user concerned, so a blocked
/// client can leave with reason "blocked").
public struct UserBlockEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var byUserId: String

    public init(cid: CallID, userId: String, byUserId: String) {
        self.cid = cid
        self.userId = userId
        self.byUserId = byUserId
    }
}
