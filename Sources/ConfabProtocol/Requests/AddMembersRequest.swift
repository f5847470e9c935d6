/// Adds members, or changes the role of existing ones (needs `updateCallMember`).
public struct AddMembersRequest: ConfabRequest, Hashable {
    public static let type = RequestType.addMembers
    public typealias Response = CallResponse

    public var cid: CallID
    public var members: [MemberRequest]

    public init(cid: CallID, members: [MemberRequest]) {
        self.cid = cid
        self.members = members
    }
}
