/// Lets a blocked user join again (needs `blockUsers`).
public struct UnblockUserRequest: ConfabRequest, Hashable {
    public static let type = RequestType.unblockUser
    public typealias Response = CallResponse

    public var cid: CallID
    public var userId: String

    public init(cid: CallID, userId: String) {
        self.cid = cid
        self.userId = userId
    }
}
