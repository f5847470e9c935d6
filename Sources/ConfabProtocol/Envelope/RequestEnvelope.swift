/// A request from a client: `{"kind":"request","id":…,"type":…,"payload":{…}}`.
public struct RequestEnvelope<Request: ConfabRequest>: Codable, Sendable {
    public var kind: MessageKind
    public var id: String
    public var type: RequestType
    public var payload: Request

    public init(id: String, payload: Request) {
        self.kind = .request
        self.id = id
        self.type = Request.type
        self.payload = payload
    }
}
