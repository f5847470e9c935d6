import FoundationEssentials

/// Body of `GET /health`.
public struct HealthStatus: Codable, Sendable {
    public var status: String
    public var protocolVersion: Int
    public var serverTime: Date
    public var connections: Int
    /// Calls and live sessions the server holds in memory now (the database holds the rest);
    /// for operators and tests watching that memory returns to its baseline. Nil from older servers.
    public var callsInMemory: Int?
    public var sessionsInMemory: Int?

    public init(
        status: String, protocolVersion: Int, serverTime: Date, connections: Int, callsInMemory: Int? = nil,
        sessionsInMemory: Int? = nil
    ) {
        self.status = status
        self.protocolVersion = protocolVersion
        self.serverTime = serverTime
        self.connections = connections
        self.callsInMemory = callsInMemory
        self.sessionsInMemory = sessionsInMemory
    }
}
