/// `call.hand_raised` / `call.hand_lowered`: a participant's hand went up or down. `byUserId`
/// is who did it (a host lowering someone's hand, or the participant themself).
public struct HandEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var sessionId: String
    /// The hand as raised (nil in `call.hand_lowered`).
    public var raisedHand: RaisedHand?
    public var byUserId: String

    public init(cid: CallID, userId: String, sessionId: String, raisedHand: RaisedHand?, byUserId: String) {
        self.cid = cid
        self.userId = userId
        self.sessionId = sessionId
        self.raisedHand = raisedHand
        self.byUserId = byUserId
    }
}
