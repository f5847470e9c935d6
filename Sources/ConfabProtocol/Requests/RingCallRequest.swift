/// Rings members of the call (all of them but the caller when `memberIds` is nil). Members
/// already in another call are rejected as `busy` on their behalf.
public struct RingCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.ringCall
    public typealias Response = CallResponse

    public var cid: CallID
    public var memberIds: [String]?
    public var video: Bool?

    public init(cid: CallID, memberIds: [String]? = nil, video: Bool? = nil) {
        self.cid = cid
        self.memberIds = memberIds
        self.video = video
    }
}
