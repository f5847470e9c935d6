/// Why a conversation with Janus failed.
enum JanusError: Error, Equatable, CustomStringConvertible {
    /// The WebSocket could not be opened (Janus not running, wrong URL, refused subprotocol).
    case unreachable(url: String, reason: String)
    /// The WebSocket closed while a request was waiting (Janus stopped or dropped us).
    case disconnected
    /// No answer within the request's deadline.
    case timedOut(request: String)
    /// The Janus core refused the request (`{"janus":"error"}`): bad session, unknown handle, ….
    case refused(code: Int, reason: String)
    /// The videoroom plugin refused the request (`error_code` in its data), e.g. 426 no such
    /// room, 427 room exists, 433 unauthorized.
    case pluginRefused(code: Int, reason: String)
    /// The answer is JSON but not what the request should get.
    case unexpectedReply(String)

    /// VideoRoom error codes this server reacts to (janus_videoroom.c).
    static let noSuchRoom = 426
    static let roomExists = 427
    static let unauthorized = 433

    var pluginErrorCode: Int? {
        if case .pluginRefused(let code, _) = self { return code }
        return nil
    }

    var description: String {
        switch self {
        case .unreachable(let url, let reason): return "Janus at \(url) is unreachable: \(reason)"
        case .disconnected: return "the connection to Janus closed"
        case .timedOut(let request): return "Janus did not answer \(request) in time"
        case .refused(let code, let reason): return "Janus refused the request (\(code)): \(reason)"
        case .pluginRefused(let code, let reason): return "the Janus videoroom refused the request (\(code)): \(reason)"
        case .unexpectedReply(let detail): return "unexpected answer from Janus: \(detail)"
        }
    }
}
