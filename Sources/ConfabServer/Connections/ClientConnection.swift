import NIOWebSocket
import Synchronization

/// One client's WebSocket as the coordinator sees it: an id and an outbox.
///
/// Frames are queued and written by one task per connection, so a slow client never holds up
/// the coordinator, and frames to one client keep their order.
final class ClientConnection: Sendable {
    let id: String
    private let outbox: AsyncStream<String>.Continuation
    private let overflowed = Atomic<Bool>(false)
    private let closing = Mutex<WebSocketErrorCode>(.goingAway)

    init(id: String, outbox: AsyncStream<String>.Continuation) {
        self.id = id
        self.outbox = outbox
    }

    /// Queues a frame. A client so far behind that its outbox is full is dropped: it would only
    /// fall further behind, and it reconnects for a fresh state.
    func send(_ text: String) {
        if case .dropped = outbox.yield(text) {
            overflowed.store(true, ordering: .relaxed)
            outbox.finish()
        }
    }

    /// True once the client fell too far behind; the writer stops instead of draining the backlog.
    var isTooSlow: Bool { overflowed.load(ordering: .relaxed) }

    /// Stops the writer, which closes the socket.
    func close() {
        outbox.finish()
    }

    /// Stops the writer, which closes the socket with `code` (the client broke the protocol).
    func close(with code: WebSocketErrorCode) {
        closing.withLock { $0 = code }
        outbox.finish()
    }

    /// The close code the writer sends when it stops.
    var closeCode: WebSocketErrorCode { closing.withLock { $0 } }
}
