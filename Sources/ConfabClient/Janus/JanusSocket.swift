import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging

/// The WebSocket to Janus (subprotocol `janus-protocol`), run off the main actor. Frames go out
/// in order; every text frame that arrives is handed to `received`.
final class JanusSocket: Sendable {
    let url: String
    private let logger: Logger
    private let outbox: AsyncStream<String>
    private let outboxInput: AsyncStream<String>.Continuation

    init(url: String, logger: Logger) {
        self.url = url
        self.logger = logger
        (outbox, outboxInput) = AsyncStream.makeStream(of: String.self)
    }

    func send(_ text: String) { outboxInput.yield(text) }

    func run(opened: @escaping @Sendable () async -> Void, received: @escaping @Sendable (String) async -> Void) async throws {
        var headers = HTTPFields()
        if let name = HTTPField.Name("Sec-WebSocket-Protocol") { headers[name] = "janus-protocol" }
        // SDP offers are a few KiB; Janus events with many publishers can be larger.
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: headers, closeTimeout: .seconds(1))
        var socketLogger = logger
        socketLogger.logLevel = max(logger.logLevel, .notice)
        let outbox = outbox, logger = logger
        try await WebSocketClient.connect(url: url, configuration: configuration, logger: socketLogger) { inbound, outbound, _ in
            await opened()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await text in outbox {
                        do { try await outbound.write(.text(text)) } catch {
                            logger.warning("could not send to Janus", metadata: ["error": "\(error)"])
                        }
                    }
                }
                defer { group.cancelAll() }
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .text(let text) = message { await received(text) }
                }
            }
        }
    }

    func finish() { outboxInput.finish() }
}
