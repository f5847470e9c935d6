/// A failed request. `id` is nil when the frame was unreadable (bad JSON, too large, no id).
public struct ErrorEnvelope: Codable, Sendable, Equatable, Error {
    public var kind: MessageKind
    public var id: String?
    /// The request type as the client sent it, when it could be read (it may be an unknown one).
    public var type: String?
    public var error: ProtocolError

    public init(id: String?, type: String?, error: ProtocolError) {
        self.kind = .error
        self.id = id
        self.type = type
        self.error = error
    }
}
