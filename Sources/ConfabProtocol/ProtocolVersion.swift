/// Wire protocol version spoken between confab clients and confab-server.
///
/// Sent by the client in `hello`; the server refuses other versions with
/// `unsupportedProtocolVersion`. Bump it when a message changes incompatibly (adding optional
/// fields is compatible and does not need a bump).
public enum ProtocolVersion { public static let current = 1 }
