/// `call.rejected`: `userId` rejected the ring. When `userId` is the caller (reason `cancel`)
/// the ring is over for everyone. `connectionId` is nil when the server rejected on the user's
/// behalf (`busy`).
public struct CallRejectedEvent: Codable, Sendable, Hashable {
    public var call: CallState
    public var userId: String
    public var reason: RejectReason
    public var connectionId: String?

    public init(call: CallState, userId: String, reason: RejectReason, connectionId: String?) {
        self.call = call
        self.userId = userId
        self.reason = reason
        self.connectionId = connectionId
    }
}
