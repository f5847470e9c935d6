/// Why a participant left a call's session.
public enum LeaveReason: String, Codable, Sendable, CaseIterable {
    case left
    case kicked
    case blocked
    /// The connection closed or stopped answering heartbeats.
    case disconnected
    case callEnded
}
