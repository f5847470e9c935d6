/// Leaves the call's session from this connection. A caller leaving a ring nobody has
/// accepted yet cancels it.
public struct LeaveCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.leaveCall
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
