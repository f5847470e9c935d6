/// `GET /ready`: whether this server can serve calls now (200) or not (503), and which part is
/// missing. `GET /health` says only that the process answers; a load balancer or systemd
/// watchdog sends clients to a server only while this says ready.
public struct ReadinessStatus: Codable, Sendable, Equatable {
    public enum Check: String, Codable, Sendable {
        case ok, down
        /// Nothing of this server's to check (no managed Janus: media off, or an external Janus).
        case notChecked
    }

    public var ready: Bool
    /// The database answered a query just now.
    public var database: Check
    /// The Janus this server manages is running and answers.
    public var janus: Check

    public init(database: Check, janus: Check) {
        self.database = database
        self.janus = janus
        ready = database != .down && janus != .down
    }
}
