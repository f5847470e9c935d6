/// `call.ended`: the call is over; ringing devices dismiss the ring, participants leave.
public struct CallEndedEvent: Codable, Sendable, Hashable {
    public var call: CallState
    public var reason: CallEndReason
    /// Who ended it; nil when the server did (unanswered, timed out).
    public var endedBy: String?

    public init(call: CallState, reason: CallEndReason, endedBy: String?) {
        self.call = call
        self.reason = reason
        self.endedBy = endedBy
    }
}
