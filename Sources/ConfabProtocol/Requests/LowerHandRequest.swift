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
