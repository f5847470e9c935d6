import FoundationEssentials

/// Round-trip probe over the WebSocket (the HTTP twin is `GET /health`).
public struct HealthCheckRequest: ConfabRequest, Hashable {
    public static let type = RequestType.healthCheck
    public typealias Response = HealthCheckResponse
    public init() {}
}

public struct HealthCheckResponse: Codable, Sendable, Hashable {
    public var serverTime: Date
    public init(serverTime: Date) { self.serverTime = serverTime }
}
