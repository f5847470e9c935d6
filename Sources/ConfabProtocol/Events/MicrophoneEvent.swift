/// `call.microphone_changed`: the participant session `sessionId` turned its microphone on or
/// off (see `UpdateMicrophoneRequest`).
public struct MicrophoneEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var sessionId: String
    public var on: Bool

    public init(cid: CallID, userId: String, sessionId: String, on: Bool) {
        self.cid = cid
        self.userId = userId
        self.sessionId = sessionId
        self.on = on
    }
}
