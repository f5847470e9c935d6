/// Tells the call whether this device's microphone is on now (needs this device in the call's
/// session). Kept with the participant (`CallParticipant.microphoneOn`), so that a device that
/// joins later shows it at once, and relayed as `call.microphone_changed` when it changes.
/// A device whose microphone sends silence is on; the others cannot tell that from off by
/// what arrives (Opus sends one packet in 400 ms of silence), which is why it is said here.
public struct UpdateMicrophoneRequest: ConfabRequest, Hashable {
    public static let type = RequestType.updateMicrophone
    public typealias Response = EmptyResponse

    public var cid: CallID
    public var on: Bool

    public init(cid: CallID, on: Bool) {
        self.cid = cid
        self.on = on
    }
}
