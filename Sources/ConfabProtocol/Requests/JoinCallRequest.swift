/// Joins the call's session from this connection. `create` makes the call first when missing.
/// Joining a call you are being rung for accepts the ring.
public struct JoinCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.joinCall
    public typealias Response = JoinCallResponse

    public var cid: CallID
    public var create: Bool?
    /// For a connection in the call already: its media endpoint stopped working (the media
    /// server restarted and forgot the room), so issue a new one. The session stays the same.
    public var renewMedia: Bool?

    public init(cid: CallID, create: Bool? = nil, renewMedia: Bool? = nil) {
        self.cid = cid
        self.create = create
        self.renewMedia = renewMedia
    }
}

public struct JoinCallResponse: Codable, Sendable, Hashable {
    public var call: CallState
    /// This device's participant session id.
    public var sessionId: String
    /// Where to send media; nil until the server manages Janus (issue 4).
    public var media: MediaEndpoint?

    public init(call: CallState, sessionId: String, media: MediaEndpoint? = nil) {
        self.call = call
        self.sessionId = sessionId
        self.media = media
    }
}
