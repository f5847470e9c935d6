/// Lets a user waiting to join the call in (needs `admitParticipants`): their devices get
/// `call.join_admitted` and may then join as a participant.
public struct AdmitParticipantRequest: ConfabRequest, Hashable {
    public static let type = RequestType.admitParticipant
    public typealias Response = CallResponse

    public var cid: CallID
    public var userId: String

    public init(cid: CallID, userId: String) {
        self.cid = cid
        self.userId = userId
    }
}
