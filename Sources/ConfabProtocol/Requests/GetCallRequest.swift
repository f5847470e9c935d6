/// Fetches a call; the connection then receives the call's events (as the lobby needs).
/// Someone who is not a member needs the call's `linkSecret` (from its link).
public struct GetCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.getCall
    public typealias Response = CallResponse
    public var cid: CallID
    public var linkSecret: String?

    public init(cid: CallID, linkSecret: String? = nil) {
        self.cid = cid
        self.linkSecret = linkSecret
    }
}
