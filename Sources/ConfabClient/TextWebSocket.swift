import FoundationEssentials
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOSSL

/// A WebSocket that carries text frames (the coordinator's JSON, Janus's JSON), run off the
/// main actor. `run` lasts as long as the socket; cancelling the task that runs it closes it.
/// Frames go out in the order they were queued; every text frame that arrives is handed to
/// `received`, one at a time, in order.
final class TextWebSocket: Sendable {
    let url: String
    /// Who is on the other end, for log lines ("the coordinator", "Janus").
    private let peer: String
    private let subprotocol: String?
    /// Whose certificates a `wss://` server may present.
    private let trust: ServerTrust
    private let maxFrameSize: Int
    private let logger: Logger
    private let outbox: AsyncStream<String>
    private let outboxInput: AsyncStream<String>.Continuation

    init(url: String, peer: String, subprotocol: String? = nil, trust: ServerTrust = .system, maxFrameSize: Int = 1 << 20, logger: Logger) {
        self.url = url
        self.peer = peer
        self.subprotocol = subprotocol
        self.trust = trust
        self.maxFrameSize = maxFrameSize
        self.logger = logger
        (outbox, outboxInput) = AsyncStream.makeStream(of: String.self)
    }

    /// Queues a text frame. Safe from any thread.
    func send(_ text: String) { outboxInput.yield(text) }

    /// Ends the outgoing side (the socket closes once `run` returns).
    func finish() { outboxInput.finish() }

    /// Connects, calls `opened` once the socket is open, then hands every text frame to
    /// `received` until the socket closes. Throws when the connection could not be made or broke,
    /// `ServerTrustError` when it failed on the server's certificate.
    func run(opened: @escaping @Sendable () async -> Void, received: @escaping @Sendable (String) async -> Void) async throws {
        var headers = HTTPFields()
        if let subprotocol, let name = HTTPField.Name("Sec-WebSocket-Protocol") { headers[name] = subprotocol }
        let configuration = WebSocketClientConfiguration(maxFrameSize: maxFrameSize, additionalHeaders: headers, closeTimeout: .seconds(1))
        var socketLogger = logger
        // The WebSocket library logs every frame at trace level; ours is enough.
        socketLogger.logLevel = max(logger.logLevel, .notice)
        let outbox = outbox, logger = logger, peer = peer, maxFrameSize = maxFrameSize
        // Only wss:// gets a TLS configuration: the library would otherwise use its own default.
        let isSecure = URL(string: url)?.scheme?.lowercased() == "wss"
        let tls = try isSecure ? trust.tlsConfiguration() : nil
        do {
            try await WebSocketClient.connect(url: url, configuration: configuration, tlsConfiguration: tls, logger: socketLogger) { inbound, outbound, _ in
                await opened()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in outbox {
                            do {
                                try await outbound.write(.text(text))
                            } catch {
                                // The read side sees the broken socket too and ends the connection.
                                logger.warning("could not send to \(peer)", metadata: ["error": "\(error)"])
                            }
                        }
                    }
                    defer { group.cancelAll() }
                    for try await message in inbound.messages(maxSize: maxFrameSize) {
                        guard case .text(let text) = message else {
                            logger.warning("dropped a binary frame from \(peer) (it only sends text)")
                            continue
                        }
                        await received(text)
                    }
                }
            }
        } catch {
            // A refused certificate is not "unreachable": retrying cannot help, trusting its CA can.
            if let refusal = ServerTrust.refusal(in: error) { throw refusal }
            throw error
        }
    }
}
