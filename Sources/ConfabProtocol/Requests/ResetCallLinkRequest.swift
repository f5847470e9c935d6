/// Gives the call a new link secret, so its old link stops working (needs `updateCall`).
/// Whoever got in with the old link and is not a member loses the call: their devices leave it
/// (`kicked`) and they hear nothing more of it until they get the new link.
public struct ResetCallLinkRequest: ConfabRequest, Hashable {
    public static let type = RequestType.resetCallLink
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
