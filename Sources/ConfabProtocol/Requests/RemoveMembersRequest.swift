/// Removes members (needs `removeCallMember`).
public struct RemoveMembersRequest: ConfabRequest, Hashable {
    public static let type = RequestType.removeMembers
    public typealias Response = CallResponse

    public var cid: CallID
    public var userIds: [String]

    public init(cid: CallID, userIds: [String]) {
        self.cid = cid
        self.userIds = userIds
    }
}
