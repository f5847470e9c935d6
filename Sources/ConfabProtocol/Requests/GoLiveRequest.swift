/// Ends backstage, so everyone may join (needs `goLive`).
public struct GoLiveRequest: ConfabRequest, Hashable {
    public static let type = RequestType.goLive
    public typealias Response = CallResponse
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
