/// Puts the call back in backstage: only hosts may join (needs `stopLive`).
public struct StopLiveRequest: ConfabRequest, Hashable {
    public static let type = RequestType.stopLive
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
