/// Removes a user's devices from the session; with `block` they also cannot come back
/// (needs `kickUser`, and `blockUsers` for `block`).
public struct KickUserRequest: ConfabRequest, Hashable {
    public static let type = RequestType.kickUser
    public typealias Response = CallResponse

    public var cid: CallID
    public var userId: String
    public var block: Bool?

    public init(cid: CallID, userId: String, block: Bool? = nil) {
        self.cid = cid
        self.userId = userId
        self.block = block
    }
}
