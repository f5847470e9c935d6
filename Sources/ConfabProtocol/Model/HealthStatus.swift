import Foundation

/// Body of `GET /health`.
public struct HealthStatus: Codable, Sendable {
    public var status: String
    public var protocolVersion: Int
    public var serverTime: Date
    public var connections: Int

    public init(status: String, protocolVersion: Int, serverTime: Date, connections: Int) {
        self.status = status
        self.protocolVersion = protocolVersion
        self.serverTime = serverTime
        self.connections = connections
    }
}
