/// Tells the call whether this device's microphone and camera are on now (needs this device in
/// the call's session); a field left out stays as it was. Kept with the participant
/// (`CallParticipant.microphoneOn`, `.cameraOn`), so that a device that joins later shows it at
/// once, and relayed as `call.media_state_changed` when it changes. What arrives cannot say it
/// soon enough: Opus sends a silent microphone as one packet in 400 ms, and a camera turned off
/// simply stops, which the others can only tell from a pause of its frames.
public struct UpdateMediaStateRequest: ConfabRequest, Hashable {
    public static let type = RequestType.updateMediaState
    public typealias Response = EmptyResponse

    public var cid: CallID
    public var microphoneOn: Bool?
    public var cameraOn: Bool?

    public init(cid: CallID, microphoneOn: Bool? = nil, cameraOn: Bool? = nil) {
        self.cid = cid
        self.microphoneOn = microphoneOn
        self.cameraOn = cameraOn
    }
}
