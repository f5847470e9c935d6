import ConfabProtocol

/// The last piece of Janus work queued per call (see `CallCoordinator.inMediaOrder`), so the
/// next piece can wait for it and a call with work pending stays in memory.
struct MediaWorkQueues {
    private var tails: [CallID: (tail: Task<Void, Never>, ticket: UInt64)] = [:]
    private var lastTicket: UInt64 = 0

    /// The work the next piece for `cid` must wait for.
    func tail(of cid: CallID) -> Task<Void, Never>? { tails[cid]?.tail }

    /// A ticket for the next piece of work; `enqueue` records it once its task exists.
    mutating func nextTicket() -> UInt64 {
        lastTicket += 1
        return lastTicket
    }

    mutating func enqueue(_ tail: Task<Void, Never>, ticket: UInt64, for cid: CallID) {
        tails[cid] = (tail, ticket)
    }

    /// Called when a piece of work finished; true when it was the last one queued for the call.
    mutating func finished(ticket: UInt64, for cid: CallID) -> Bool {
        guard tails[cid]?.ticket == ticket else { return false }
        tails[cid] = nil
        return true
    }

    func hasWork(for cid: CallID) -> Bool { tails[cid] != nil }
}
