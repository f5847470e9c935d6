/// Rejects the ring (`decline` when no reason is given). From the caller it cancels the ring for
/// everyone. Rejecting when no ring is in progress is accepted and changes nothing.
public struct RejectCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.rejectCall
    public typealias Response = CallResponse

    public var cid: CallID
    public var reason: RejectReason?

    public init(cid: CallID, reason: RejectReason? = nil) {
        self.cid = cid
        self.reason = reason
    }
}
