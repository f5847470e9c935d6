/// `call.knock_resolved`: a knock was answered or withdrawn; sent to those who may admit, so
/// every host's waiting list stays the same.
public struct KnockResolvedEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var outcome: KnockOutcome
    /// The host who answered; nil when the knocker withdrew, or got in by becoming a member.
    public var byUserId: String?

    public init(cid: CallID, userId: String, outcome: KnockOutcome, byUserId: String?) {
        self.cid = cid
        self.userId = userId
        self.outcome = outcome
        self.byUserId = byUserId
    }
}
