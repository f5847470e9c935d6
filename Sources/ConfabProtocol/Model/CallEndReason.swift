/// Why a call ended.
public enum CallEndReason: String, Codable, Sendable, CaseIterable {
    /// Someone with `endCall` ended it.
    case ended
    /// Every member who was rung rejected the ring.
    case unanswered
    /// Nobody answered before the ring's auto-cancel timeout.
    case timedOut
    /// The caller cancelled the ring before anyone accepted.
    case cancelled
}
