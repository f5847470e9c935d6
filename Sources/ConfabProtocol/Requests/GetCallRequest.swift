/// Fetches a call; the connection then receives the call's events (as the lobby needs).
public struct GetCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.getCall
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
