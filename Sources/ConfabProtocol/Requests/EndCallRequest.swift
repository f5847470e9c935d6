/// Ends the call for everyone (needs `endCall`).
public struct EndCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.endCall
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
