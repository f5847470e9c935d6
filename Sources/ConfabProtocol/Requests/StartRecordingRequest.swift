/// Records the call through Janus (needs `startRecording`): `recordingState` is `requested`
/// until Janus confirms, then `recording`.
public struct StartRecordingRequest: ConfabRequest, Hashable {
    public static let type = RequestType.startRecording
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
