/// `call.ring`: sent to every connected device of each member rung (never to the caller).
public struct CallRingEvent: Codable, Sendable, Hashable {
    public var call: CallState
    public var callerId: String
    /// Everyone this ring reaches, so an incoming-call screen can show the other members.
    public var memberIds: [String]
    public var video: Bool

    public init(call: CallState, callerId: String, memberIds: [String], video: Bool) {
        self.call = call
        self.callerId = callerId
        self.memberIds = memberIds
        self.video = video
    }
}
