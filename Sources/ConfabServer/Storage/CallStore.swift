import ConfabProtocol
import Foundation
import Logging

/// Where calls, their members and blocked users live between restarts: `SQLiteCallStore` (the
/// default, a file) or `PostgresCallStore` (`--db postgres://…`, a database several servers can
/// share). `CallStore.open` picks one from `--db`.
///
/// Synchronous, and called from the `CallCoordinator` actor only, one call at a time: an `await`
/// in the middle of a request would let another request interleave. Implementations need no
/// locking of their own beyond what their database does.
protocol CallStore: Sendable {
    func call(_ cid: CallID) throws -> StoredCall?
    /// Writes the whole call (members and blocked users included) atomically.
    func save(_ call: StoredCall) throws
    /// The call's finished recordings, oldest first.
    func recordings(of cid: CallID) throws -> [StoredRecording]
    /// Why recordings (or broadcasts) of the call failed, oldest first.
    func recordingErrors(of cid: CallID) throws -> [String]
    /// Appends finished recordings and errors to a saved call's lists, atomically.
    func add(_ recordings: [StoredRecording], errors: [String], to cid: CallID) throws
    /// Keeps a chat message of a saved call; the store gives it its id (larger than every
    /// earlier message's). Messages go with their call's row (`ON DELETE CASCADE`).
    func addChatMessage(to cid: CallID, userId: String, sessionId: String?, text: String, at date: Date) throws -> ChatMessage
    /// The newest `limit` messages of the call older than the message `before` (all, when nil),
    /// oldest first.
    func chatMessages(of cid: CallID, before: Int64?, limit: Int) throws -> [ChatMessage]
    /// Whether the database answers now (`GET /ready`). Safe to call from any thread.
    func isReachable() -> Bool
    /// Lets go of the database (connections, threads); the store is not used after.
    func close()
}

/// Opens the store `--db` names: migrated and proven writable, or a `DatabaseStartError` that
/// says where and what to do.
func openCallStore(_ location: DatabaseLocation, logger: Logger) throws(DatabaseStartError) -> any CallStore {
    switch location {
    case .sqlite(let path): try SQLiteCallStore(path: path)
    case .postgres(let postgres): try PostgresCallStore(location: postgres, logger: logger)
    }
}

/// A row the current schema cannot read (written by a newer server, or edited by hand).
enum StoredRowError: Error, CustomStringConvertible {
    case unknownRole(String)
    case unreadableLinkSecret(cid: String)
    var description: String {
        switch self {
        case .unknownRole(let role): "stored member role '\(role)' is unknown"
        case .unreadableLinkSecret(let cid): "the stored link secret of \(cid) is missing or not 32 hex digits"
        }
    }
}
