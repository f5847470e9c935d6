/// How a knock ended, as hosts are told (`call.knock_resolved`).
public enum KnockOutcome: String, Codable, Sendable {
    case admitted, denied
    /// The knocker went away (disconnected, or left the lobby) before anyone answered.
    case withdrawn
}
