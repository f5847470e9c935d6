/// `call.session_participant_left`.
public struct ParticipantLeftEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var participant: CallParticipant
    public var reason: LeaveReason

    public init(cid: CallID, participant: CallParticipant, reason: LeaveReason) {
        self.cid = cid
        self.participant = participant
        self.reason = reason
    }
}
