/// What we ask the Janus core (the `janus` field of a request) and where: the session and
/// handle it concerns, and for `message` the plugin request and an optional SDP.
///
/// Janus answers each with the same transaction: `create`, `attach`, `destroy`, `detach` and
/// `info` with `success` (or `server_info`); `keepalive` and `trickle` with only an `ack`; a
/// plugin `message` with `success` carrying the plugin's data when the plugin answers at once
/// (create, exists, listparticipants …), else with an `ack` and later an `event` (join,
/// publish, configure, start, leave …). Any of them may get `error` instead.
public enum JanusCommand: Sendable, Equatable {
    /// The plugins Confab attaches to.
    public enum Plugin: String, Sendable, Codable {
        case videoRoom = "janus.plugin.videoroom"
    }

    case info
    case createSession
    case destroySession(session: UInt64)
    case keepalive(session: UInt64)
    case attach(session: UInt64, plugin: Plugin)
    case detach(session: UInt64, handle: UInt64)
    case message(session: UInt64, handle: UInt64, body: VideoRoomRequest, jsep: JSEP? = nil)
    case trickle(session: UInt64, handle: UInt64, candidate: JanusCandidate)

    /// The request's `janus` name, also used in errors and logs.
    public var name: String {
        switch self {
        case .info: "info"
        case .createSession: "create"
        case .destroySession: "destroy"
        case .keepalive: "keepalive"
        case .attach: "attach"
        case .detach: "detach"
        case .message(_, _, let body, _): "message (\(body.name))"
        case .trickle: "trickle"
        }
    }

    /// Janus's only answer is an `ack`: waiting for more would wait forever.
    public var isAnsweredByAck: Bool {
        switch self {
        case .keepalive, .trickle: true
        default: false
        }
    }
}
