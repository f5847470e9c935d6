/// The body of an error frame: a stable `code` for programs and a `message` for people.
public struct ProtocolError: Codable, Sendable, Equatable, Error, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// Every error the server can answer with.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    /// The frame is not JSON.
    case malformedJSON
    /// The frame is JSON but a field is missing or has the wrong type; the message names it.
    case invalidRequest
    case unknownRequestType
    /// The frame is larger than 64 KiB.
    case messageTooLarge
    /// The frame nests JSON arrays/objects deeper than the server reads (see `FrameGuard`).
    case nestingTooDeep
    case unsupportedProtocolVersion
    /// A request other than `hello` came before a successful `hello`.
    case notAuthenticated
    /// The token is missing, forged, expired or for another user.
    case invalidToken
    case alreadyAuthenticated
    case callNotFound
    case callEnded
    /// The user lacks the capability the request needs; the message names it.
    case forbidden
    /// The call exists and is private: the user is not a member, was not let in by a host
    /// and gave no valid link secret. Nothing else of the call is said (issue 16, item 8).
    case privateCall
    case blockedFromCall
    case notAMember
    /// accept/reject when the user is not being rung.
    case notRinging
    case participantNotFound
    /// The request conflicts with the call's state (e.g. recording already started).
    case conflict
    /// A chat message over 4096 bytes of UTF-8 (`ChatMessage.maxTextBytes`).
    case messageTooLong
    /// Too many requests of one kind in a short time (reactions, video views: the server's `SessionRateLimits`).
    case rateLimited
    /// The request needs this device to be in the call's session (chat, reactions, hands).
    case notInCall
    /// The call asks to join: the join knocked and waits for a host (`call.join_admitted` or
    /// `call.join_denied` follows); nothing of the call is shown until then.
    case waitingForHost
    /// A host turned this user away from the call's waiting room; joining again is refused.
    case joinDenied
    case internalError
}
