/// A successful answer to the request with the same `id`.
public struct ResponseEnvelope<Payload: Codable & Sendable>: Codable, Sendable {
    public var kind: MessageKind
    public var id: String
    public var type: RequestType
    public var payload: Payload

    public init(id: String, type: RequestType, payload: Payload) {
        self.kind = .response
        self.id = id
        self.type = type
        self.payload = payload
    }
}
