/// Joins the call's session from this connection. `create` makes the call first when missing
/// (never hands over one that exists). Someone who is not a member needs the call's
/// `linkSecret`. Joining a call you are being rung for accepts the ring.
public struct JoinCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.joinCall
    public typealias Response = JoinCallResponse

    public var cid: CallID
    public var create: Bool?
    /// For a connection in the call already: its media endpoint stopped working (the media
    /// server restarted and forgot the room), so issue a new one. The session stays the same.
    public var renewMedia: Bool?
    /// The secret from the call's link, for someone who is not a member.
    public var linkSecret: String?
    /// Whether this device joins with its microphone and camera on (kept as the participant's
    /// `microphoneOn` and `cameraOn`; see `UpdateMediaStateRequest`). nil: not said.
    public var microphoneOn: Bool?
    public var cameraOn: Bool?

    public init(cid: CallID, create: Bool? = nil, renewMedia: Bool? = nil, linkSecret: String? = nil, microphoneOn: Bool? = nil,
                cameraOn: Bool? = nil) {
        self.cid = cid
        self.create = create
        self.renewMedia = renewMedia
        self.linkSecret = linkSecret
        self.microphoneOn = microphoneOn
        self.cameraOn = cameraOn
    }
}

public struct JoinCallResponse: Codable, Sendable, Hashable {
    public var call: CallState
    /// This device's participant session id.
    public var sessionId: String
    /// Where to send media; nil when the server runs without a media server (`--no-media`).
    public var media: MediaEndpoint?

    public init(call: CallState, sessionId: String, media: MediaEndpoint? = nil) {
        self.call = call
        self.sessionId = sessionId
        self.media = media
    }
}
