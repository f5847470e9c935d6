import ConfabProtocol

/// Where calls, their members and blocked users live between restarts. SQLite (`SQLiteCallStore`)
/// is the default; a PostgreSQL store can implement the same two methods.
///
/// Called from the `CallCoordinator` actor only, one call at a time, so implementations need no
/// locking of their own beyond what their database does.
protocol CallStore: Sendable {
    func call(_ cid: CallID) throws -> StoredCall?
    /// Writes the whole call (members and blocked users included) atomically.
    func save(_ call: StoredCall) throws
}
