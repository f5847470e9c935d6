/// Accepts the ring for this user; the user's other devices get `call.accepted` and stop ringing.
public struct AcceptCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.acceptCall
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
