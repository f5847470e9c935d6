import FoundationEssentials

/// `health.check`: periodic heartbeat; its absence tells a client the connection is gone.
public struct HealthCheckEvent: Codable, Sendable, Hashable {
    public var connectionId: String
    public var serverTime: Date

    public init(connectionId: String, serverTime: Date) {
        self.connectionId = connectionId
        self.serverTime = serverTime
    }
}
