import ConfabProtocol
import Foundation
import HummingbirdWSClient
import Logging

/// One WebSocket connection to the coordinator, run off the main actor. `run` lasts as long as
/// the socket; cancelling the task that runs it closes the socket. Frames are decoded here, so
/// the main actor only sees typed frames, and are handed over one at a time, in order.
final class CoordinatorSocket: Sendable {
    let url: String
    private let logger: Logger
    private let outbox: AsyncStream<String>
    private let outboxInput: AsyncStream<String>.Continuation

    /// The protocol caps frames at 64 KiB; allow more so an over-long frame is a logged drop
    /// rather than a torn-down connection.
    private static let maxFrameSize = 1 << 20

    init(url: String, logger: Logger) {
        self.url = url
        self.logger = logger
        (outbox, outboxInput) = AsyncStream.makeStream(of: String.self)
    }

    /// Queues a text frame; frames go out in the order they were queued. Safe from any thread.
    func send(_ text: String) {
        outboxInput.yield(text)
    }

    /// Connects, calls `opened` once the socket is open, then hands every readable frame to
    /// `received` until the socket closes. Throws when the connection could not be made or broke.
    func run(opened: @escaping @Sendable () async -> Void, received: @escaping @Sendable (InboundFrame) async -> Void) async throws {
        let configuration = WebSocketClientConfiguration(maxFrameSize: Self.maxFrameSize, closeTimeout: .seconds(1))
        var socketLogger = logger
        // The WebSocket library logs every frame at trace level; ours is enough.
        socketLogger.logLevel = max(logger.logLevel, .notice)
        let outbox = outbox, logger = logger
        try await WebSocketClient.connect(url: url, configuration: configuration, logger: socketLogger) { inbound, outbound, _ in
            await opened()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await text in outbox {
                        do {
                            try await outbound.write(.text(text))
                        } catch {
                            // The read side sees the broken socket too and ends the connection.
                            logger.warning("could not send to the coordinator", metadata: ["error": "\(error)"])
                        }
                    }
                }
                defer { group.cancelAll() }
                for try await message in inbound.messages(maxSize: Self.maxFrameSize) {
                    guard case .text(let text) = message else {
                        logger.warning("dropped a binary frame from the coordinator (it only sends text)")
                        continue
                    }
                    do {
                        await received(try InboundFrame.decode(text))
                    } catch {
                        logger.warning("dropped an unreadable frame from the coordinator", metadata: ["frame": "\(error)"])
                    }
                }
            }
        }
    }
}
