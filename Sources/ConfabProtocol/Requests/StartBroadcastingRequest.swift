/// Starts an HLS broadcast of the call; `hlsPlaylistUrl` is set when it runs (needs `startBroadcasting`).
public struct StartBroadcastingRequest: ConfabRequest, Hashable {
    public static let type = RequestType.startBroadcasting
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
