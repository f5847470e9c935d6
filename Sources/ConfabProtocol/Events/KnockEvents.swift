/// `call.participant_knocked`: someone who is not a member asks to join a call with a waiting
/// room. Sent to those who may admit them.
public struct ParticipantKnockedEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var knock: CallKnock

    public init(cid: CallID, knock: CallKnock) {
        self.cid = cid
        self.knock = knock
    }
}

/// `call.knock_resolved`: a knock was answered or withdrawn; sent to those who may admit, so
/// every host's waiting list stays the same.
public struct KnockResolvedEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var outcome: KnockOutcome
    /// The host who answered; nil when the knocker withdrew.
    public var byUserId: String?

    public init(cid: CallID, userId: String, outcome: KnockOutcome, byUserId: String?) {
        self.cid = cid
        self.userId = userId
        self.outcome = outcome
        self.byUserId = byUserId
    }
}

/// `call.join_admitted` / `call.join_denied`: the answer to this user's knock, sent to the
/// knocker's devices only. It says nothing about the call but its id: admitted, join again;
/// denied, you are told and learn nothing more.
public struct JoinAnswerEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
