/// `call.member_added`: members added, or whose role changed.
public struct MembersAddedEvent: Codable, Sendable, Hashable {
    public var call: CallState
    public var members: [CallMember]

    public init(call: CallState, members: [CallMember]) {
        self.call = call
        self.members = members
    }
}
