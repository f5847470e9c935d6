import ConfabProtocol

/// Janus work for calls, kept in the order the coordinator decided it.
///
/// The coordinator answers requests while Janus work is still running, so without ordering a
/// call that ends and is rejoined at once could see Janus destroy the room after the new join's
/// token was added. Each call's Janus work therefore runs one piece after another, in the order
/// it was queued here (queueing is synchronous on the actor).
extension CallCoordinator {
    func inMediaOrder<T: Sendable>(
        for cid: CallID, _ work: @escaping @Sendable () async throws -> T
    ) -> Task<T, any Error> {
        let previous = mediaQueues.tail(of: cid)
        let ticket = mediaQueues.nextTicket()
        let task = Task {
            await previous?.value
            return try await work()
        }
        let tail = Task { [weak self] in
            _ = await task.result
            await self?.mediaWorkFinished(for: cid, ticket: ticket)
        }
        mediaQueues.enqueue(tail, ticket: ticket, for: cid)
        return task
    }

    /// Takes a departed participant's token out of the call's room.
    func revokeMedia(_ token: String, in cid: CallID) {
        guard let media else { return }
        _ = inMediaOrder(for: cid) { await media.revoke(token, in: cid) }
    }

    /// Drops a departed participant session's publishers from the call's room (see `JanusRooms.eject`).
    func ejectMedia(session: String, in cid: CallID) {
        guard let media else { return }
        _ = inMediaOrder(for: cid) { await media.eject(session: session, in: cid) }
    }

    /// Destroys the call's room when the call ends.
    func closeMediaRoom(of cid: CallID) {
        guard let media else { return }
        _ = inMediaOrder(for: cid) { await media.closeRoom(for: cid) }
    }

    private func mediaWorkFinished(for cid: CallID, ticket: UInt64) {
        // The queued work was all that kept an idle call (e.g. one that just ended) in memory.
        if mediaQueues.finished(ticket: ticket, for: cid) { evictIfIdle(cid) }
    }
}
