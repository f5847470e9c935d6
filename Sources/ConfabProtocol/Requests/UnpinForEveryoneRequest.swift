/// Removes a pin set by `pinForEveryone` (needs `pinForEveryone`).
public struct UnpinForEveryoneRequest: ConfabRequest, Hashable {
    public static let type = RequestType.unpinForEveryone
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
