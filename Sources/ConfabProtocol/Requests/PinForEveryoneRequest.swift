/// Pins one participant's session for everyone (needs `pinForEveryone`).
public struct PinForEveryoneRequest: ConfabRequest, Hashable {
    public static let type = RequestType.pinForEveryone
    public typealias Response = CallResponse

    public var cid: CallID
    public var userId: String
    public var sessionId: String

    public init(cid: CallID, userId: String, sessionId: String) {
        self.cid = cid
        self.userId = userId
        self.sessionId = sessionId
    }
}
