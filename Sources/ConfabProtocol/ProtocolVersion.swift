/// Wire protocol version spoken between confab clients and confab-server.
public enum ProtocolVersion { public static let current = 1 }
