/// Raises this device's hand in the call (needs `raiseHand`, and this device in the session).
/// Raising a raised hand changes nothing (it keeps its place in the order).
public struct RaiseHandRequest: ConfabRequest, Hashable {
    public static let type = RequestType.raiseHand
    public typealias Response = CallResponse

    public var cid: CallID

    public init(cid: CallID) { self.cid = cid }
}
