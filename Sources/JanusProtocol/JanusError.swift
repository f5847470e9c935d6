/// Why a conversation with Janus failed, for the coordinator and the apps alike.
public enum JanusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The WebSocket could not be opened (Janus not running, wrong URL, refused subprotocol).
    case unreachable(url: String, reason: String)
    /// The WebSocket closed (Janus stopped or dropped us, or we closed it) while something needed it.
    case disconnected(reason: String)
    /// Janus dropped our session after missing keepalives (a `timeout` message).
    case sessionTimedOut
    /// No answer within the request's deadline.
    case timedOut(request: String)
    /// The Janus core refused the request (`{"janus":"error"}`): bad session, unknown handle, ….
    case refused(code: Int, reason: String)
    /// The plugin refused the request (`error_code` in its data), e.g. 426 no such room, 427
    /// room exists, 433 unauthorized.
    case pluginRefused(code: Int, reason: String)
    /// The answer is well-formed but not what the request should get (no session id, no SDP …).
    case unexpectedReply(String)

    /// VideoRoom error codes Confab reacts to (janus_videoroom.c).
    public static let noSuchRoom = 426
    public static let roomExists = 427
    public static let unauthorized = 433

    public var pluginErrorCode: Int? {
        if case .pluginRefused(let code, _) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .unreachable(let url, let reason): "the media server at \(url) is unreachable: \(reason)"
        case .disconnected(let reason): reason
        case .sessionTimedOut: "the media server timed out our session"
        case .timedOut(let request): "the media server did not answer \(request) in time"
        case .refused(let code, let reason): "the media server refused the request (\(code)): \(reason)"
        case .pluginRefused(let code, let reason): "the media server's video room refused the request (\(code)): \(reason)"
        case .unexpectedReply(let detail): "unexpected answer from the media server: \(detail)"
        }
    }
}
