/// `call.session_participant_joined`.
public struct ParticipantJoinedEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var participant: CallParticipant

    public init(cid: CallID, participant: CallParticipant) {
        self.cid = cid
        self.participant = participant
    }
}
