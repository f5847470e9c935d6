import ConfabProtocol

/// The calls in use, read from the `CallStore` (which stays the source of truth) or being
/// changed. A call nobody uses any more leaves memory (`CallCoordinator.evictIdleCalls`);
/// only calls touched since the last check can have become idle, so only those are checked.
struct CallCache {
    private var calls: [CallID: StoredCall] = [:]
    private var touched: Set<CallID> = []

    var count: Int { calls.count }

    subscript(cid: CallID) -> StoredCall? { calls[cid] }

    mutating func keep(_ call: StoredCall) {
        calls[call.cid] = call
    }

    /// Marks the call as used now, so the next idle check looks at it.
    mutating func touch(_ cid: CallID) {
        touched.insert(cid)
    }

    /// The calls touched since the last call of this, forgetting them.
    mutating func takeTouched() -> Set<CallID> {
        defer { touched.removeAll() }
        return touched
    }

    mutating func forget(_ cid: CallID) {
        calls[cid] = nil
    }
}
