import ConfabProtocol
import FoundationEssentials
import Logging

/// One WebSocket connection to the coordinator: a text socket whose frames are decoded here,
/// so the main actor only sees typed frames.
final class CoordinatorSocket: Sendable {
    private let socket: TextWebSocket
    private let logger: Logger
    /// What the requests sent on this socket expect back; read by the decode of each answer.
    let answers = ExpectedAnswers()

    /// The protocol caps frames at 64 KiB; allow more so an over-long frame is a logged drop
    /// rather than a torn-down connection.
    init(url: String, trust: ServerTrust, logger: Logger) {
        socket = TextWebSocket(url: url, peer: "the coordinator", trust: trust, maxFrameSize: 1 << 20, logger: logger)
        self.logger = logger
    }

    var url: String { socket.url }

    /// Queues a text frame; frames go out in the order they were queued. Safe from any thread.
    func send(_ text: String) { socket.send(text) }

    /// Connects, calls `opened` once the socket is open, then hands every readable frame to
    /// `received` until the socket closes. Throws when the connection could not be made or broke.
    func run(opened: @escaping @Sendable () async -> Void, received: @escaping @Sendable (InboundFrame) async -> Void) async throws {
        let logger = logger, answers = answers
        try await socket.run(opened: opened) { text in
            do {
                await received(try InboundFrame.decode(text, expecting: answers))
            } catch {
                logger.warning("dropped an unreadable frame from the coordinator", metadata: ["frame": "\(error)"])
            }
        }
    }
}
