/// A server-pushed event: `{"kind":"event","type":"call.ring","payload":{…}}`.
public struct EventEnvelope: Codable, Sendable {
    public var kind: MessageKind
    public var event: ServerEvent

    public init(event: ServerEvent) {
        self.kind = .event
        self.event = event
    }

    private enum CodingKeys: String, CodingKey { case kind, type, payload }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(MessageKind.self, forKey: .kind)
        let typeName = try container.decode(String.self, forKey: .type)
        guard let type = EventType(rawValue: typeName) else {
            // Newer servers may send events this client does not know; keep them readable.
            event = .unknown(type: typeName)
            return
        }
        event = try ServerEvent(type: type, payloadIn: container, forKey: .payload)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(event.typeName, forKey: .type)
        try event.encodePayload(in: &container, forKey: .payload)
    }
}
