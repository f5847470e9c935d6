/// The first request on every connection: authenticates the user.
///
/// Send `token` (from `confab-server token USER`); against a server started with `--dev-auth`
/// a bare `userId` is enough. If both are sent they must name the same user.
public struct HelloRequest: ConfabRequest, Hashable {
    public static let type = RequestType.hello
    public typealias Response = HelloResponse

    public var protocolVersion: Int
    public var token: String?
    public var userId: String?
    /// Shown in server logs, e.g. "confab 0.1 (GTK)" or "confab-peer".
    public var clientName: String?

    public init(protocolVersion: Int = ProtocolVersion.current, token: String? = nil, userId: String? = nil, clientName: String? = nil) {
        self.protocolVersion = protocolVersion
        self.token = token
        self.userId = userId
        self.clientName = clientName
    }
}

public struct HelloResponse: Codable, Sendable, Hashable {
    public var protocolVersion: Int
    public var userId: String
    /// Identifies this device; events such as `call.accepted` name the connection that acted.
    public var connectionId: String
    /// How often `health.check` events come; a client can treat several missed ones as a lost connection.
    public var healthCheckIntervalMs: Int

    public init(protocolVersion: Int, userId: String, connectionId: String, healthCheckIntervalMs: Int) {
        self.protocolVersion = protocolVersion
        self.userId = userId
        self.connectionId = connectionId
        self.healthCheckIntervalMs = healthCheckIntervalMs
    }
}
