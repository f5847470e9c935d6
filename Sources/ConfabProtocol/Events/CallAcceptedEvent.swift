/// `call.accepted`: `userId` accepted on the device `connectionId`. That user's other devices
/// stop ringing when they see it (stream-video PR #640).
public struct CallAcceptedEvent: Codable, Sendable, Hashable {
    public var call: CallState
    public var userId: String
    public var connectionId: String

    public init(call: CallState, userId: String, connectionId: String) {
        self.call = call
        self.userId = userId
        self.connectionId = connectionId
    }
}
