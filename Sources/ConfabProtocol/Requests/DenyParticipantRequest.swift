/// Turns a user waiting to join away (needs `admitParticipants`): their devices get
/// `call.join_denied` and nothing else of the call; their later joins are refused (`joinDenied`).
public struct DenyParticipantRequest: ConfabRequest, Hashable {
    public static let type = RequestType.denyParticipant
    public typealias Response = CallResponse

    public var cid: CallID
    public var userId: String

    public init(cid: CallID, userId: String) {
        self.cid = cid
        self.userId = userId
    }
}
