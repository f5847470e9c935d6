/// Stops recording (needs `stopRecording`); the converted files arrive later in `recordings`.
public struct StopRecordingRequest: ConfabRequest, Hashable {
    public static let type = RequestType.stopRecording
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
