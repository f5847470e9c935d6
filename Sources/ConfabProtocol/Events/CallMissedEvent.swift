/// `call.missed`: the ring's auto-cancel timeout passed before `userIds` answered. Sent to
/// them and to the caller.
public struct CallMissedEvent: Codable, Sendable, Hashable {
    public var call: CallState
    public var callerId: String
    public var userIds: [String]

    public init(call: CallState, callerId: String, userIds: [String]) {
        self.call = call
        self.callerId = callerId
        self.userIds = userIds
    }
}
