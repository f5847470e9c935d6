/// Raises this device's hand in the call (needs `raiseHand`, and this device in the session).
/// Raising a raised hand changes nothing (it keeps its place in the order).
public struct RaiseHandRequest: ConfabRequest, Hashable {
    public static let type = RequestType.raiseHand
    public typealias Response = CallResponse

    public var cid: CallID

    public init(cid: CallID) { self.cid = cid }
}

/// Lowers a user's raised hands (on every device). Your own needs nothing more than being in
/// the call; someone else's needs `muteUsers` — the host's floor control, as muting is.
public struct LowerHandRequest: ConfabRequest, Hashable {
    public static let type = RequestType.lowerHand
    public typealias Response = CallResponse

    public var cid: CallID
    /// Whose hand; nil for your own.
    public var userId: String?

    public init(cid: CallID, userId: String? = nil) {
        self.cid = cid
        self.userId = userId
    }
}
