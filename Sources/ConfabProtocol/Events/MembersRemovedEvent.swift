/// `call.member_removed` (also sent to the removed members).
public struct MembersRemovedEvent: Codable, Sendable, Hashable {
    public var call: CallState
    public var userIds: [String]

    public init(call: CallState, userIds: [String]) {
        self.call = call
        self.userIds = userIds
    }
}
