import ConfabProtocol

/// The calls in use, read from the `CallStore` (which stays the source of truth) or being
/// changed. A call nobody uses any more leaves memory (`CallCoordinator.evictIdleCalls`);
/// only calls touched since the last check can have become idle, so only those are checked.
///
/// It also remembers who opened each call with its link secret (`CallAccess.linkHolder`): only
/// while the call is in memory, because the secret, not a record of having used it, is what
/// grants access — a client presents it again when it comes back.
struct CallCache {
    private var calls: [CallID: StoredCall] = [:]
    private var touched: Set<CallID> = []
    private var linkHolders: [CallID: Set<String>] = [:]

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
        linkHolders[cid] = nil
    }

    /// `userId` presented the call's link secret.
    mutating func admitLinkHolder(_ userId: String, to cid: CallID) {
        linkHolders[cid, default: []].insert(userId)
    }

    /// Who opened the call with its link.
    func linkHolders(of cid: CallID) -> Set<String> {
        linkHolders[cid] ?? []
    }

    /// Forgets who opened the call with its link (the link changed).
    mutating func forgetLinkHolders(of cid: CallID) {
        linkHolders[cid] = nil
    }

    func holdsLink(_ userId: String, to cid: CallID) -> Bool {
        linkHolders[cid]?.contains(userId) ?? false
    }
}
