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
