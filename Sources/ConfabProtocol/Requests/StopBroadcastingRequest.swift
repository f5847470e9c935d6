/// Ends the call's HLS broadcast and removes its playlist (needs `stopBroadcasting`).
public struct StopBroadcastingRequest: ConfabRequest, Hashable {
    public static let type = RequestType.stopBroadcasting
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
