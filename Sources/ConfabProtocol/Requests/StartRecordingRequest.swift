/// Sets the call's `recording` flag (needs `startRecording`). Nothing is recorded yet: the flag
/// is what clients show.
public struct StartRecordingRequest: ConfabRequest, Hashable {
    public static let type = RequestType.startRecording
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
