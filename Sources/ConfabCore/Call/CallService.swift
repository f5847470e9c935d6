/// What the call view model needs from the call coordinator. ConfabClient implements it over
/// the coordinator's WebSocket; tests use fakes.
@MainActor
public protocol CallService: AnyObject {
    /// Joins `call` with the given media settings; returns once the coordinator admitted us.
    func joinCall(_ call: CallID, settings: CallSettings) async throws
    /// The people already in a call, for the lobby ("Ada and 2 others are in the call").
    func participants(in call: CallID) async throws -> [Member]
}

/// Why something the user asked for did not happen, in words for them.
public struct CallError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    public static let notConnected = CallError("Not connected to a call server. Check the server address and try again.")
}

/// A short message for the user (a toast).
public struct Toast: Equatable, Sendable, Identifiable {
    public let id: Int
    public let message: String
}
