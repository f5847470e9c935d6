/// A request as sent: the command and the transaction its answers will carry.
public struct JanusRequest: Encodable, Sendable, Equatable {
    public var transaction: String
    public var command: JanusCommand

    public init(transaction: String, command: JanusCommand) {
        self.transaction = transaction
        self.command = command
    }

    private enum Key: String, CodingKey {
        case janus, transaction, session_id, handle_id, plugin, body, jsep, candidate
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(transaction, forKey: .transaction)
        switch command {
        case .info:
            try container.encode("info", forKey: .janus)
        case .createSession:
            try container.encode("create", forKey: .janus)
        case .destroySession(let session):
            try container.encode("destroy", forKey: .janus)
            try container.encode(session, forKey: .session_id)
        case .keepalive(let session):
            try container.encode("keepalive", forKey: .janus)
            try container.encode(session, forKey: .session_id)
        case .attach(let session, let plugin):
            try container.encode("attach", forKey: .janus)
            try container.encode(session, forKey: .session_id)
            try container.encode(plugin, forKey: .plugin)
        case .detach(let session, let handle):
            try container.encode("detach", forKey: .janus)
            try container.encode(session, forKey: .session_id)
            try container.encode(handle, forKey: .handle_id)
        case .message(let session, let handle, let body, let jsep):
            try container.encode("message", forKey: .janus)
            try container.encode(session, forKey: .session_id)
            try container.encode(handle, forKey: .handle_id)
            try container.encode(body, forKey: .body)
            try container.encodeIfPresent(jsep, forKey: .jsep)
        case .trickle(let session, let handle, let candidate):
            try container.encode("trickle", forKey: .janus)
            try container.encode(session, forKey: .session_id)
            try container.encode(handle, forKey: .handle_id)
            try container.encode(candidate, forKey: .candidate)
        }
    }

    /// The request as one compact JSON text frame.
    public func text() throws -> String {
        String(decoding: try JanusCoding.encoder().encode(self), as: UTF8.self)
    }
}
