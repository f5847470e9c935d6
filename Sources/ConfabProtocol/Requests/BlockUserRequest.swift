/// Blocks a user from the call: they are removed from its session and cannot join again until
/// unblocked (needs `blockUsers`).
public struct BlockUserRequest: ConfabRequest, Hashable {
    public static let type = RequestType.blockUser
    public typealias Response = CallResponse

    public var cid: CallID
    public var userId: String

    public init(cid: CallID, userId: String) {
        self.cid = cid
        self.userId = userId
    }
}
