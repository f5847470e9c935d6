/// `call.media_state_changed`: the participant session `sessionId` turned its microphone or
/// camera on or off; the fields are its state now, as kept (see `UpdateMediaStateRequest`).
public struct MediaStateEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var sessionId: String
    public var microphoneOn: Bool?
    public var cameraOn: Bool?

    public init(cid: CallID, userId: String, sessionId: String, microphoneOn: Bool?, cameraOn: Bool?) {
        self.cid = cid
        self.userId = userId
        self.sessionId = sessionId
        self.microphoneOn = microphoneOn
        self.cameraOn = cameraOn
    }
}
