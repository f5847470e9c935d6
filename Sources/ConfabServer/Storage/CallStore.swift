import ConfabProtocol

/// Where calls, their members and blocked users live between restarts. SQLite (`SQLiteCallStore`)
/// is the default; a PostgreSQL store can implement the same methods.
///
/// Called from the `CallCoordinator` actor only, one call at a time, so implementations need no
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
}
