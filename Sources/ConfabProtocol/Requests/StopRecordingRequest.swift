/// Clears the call's `recording` flag (needs `stopRecording`).
public struct StopRecordingRequest: ConfabRequest, Hashable {
    public static let type = RequestType.stopRecording
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
