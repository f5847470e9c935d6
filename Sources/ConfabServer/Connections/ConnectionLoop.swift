import ConfabProtocol
import Foundation
import HummingbirdWebSocket

/// Runs one client's WebSocket: reads messages into the coordinator and writes its outbox.
enum ConnectionLoop {
    /// How many frames may wait for a slow client before it is dropped.
    static let outboxCapacity = 4096

    static func run(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, coordinator: CallCoordinator,
        maxMessageSize: Int, frameLimits: FrameGuard.Limits
    ) async {
        let (outbox, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(outboxCapacity))
        let connection = ClientConnection(id: UUID().uuidString.lowercased(), outbox: continuation)
        await coordinator.connected(connection)

        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for await text in outbox {
                        if connection.isTooSlow { break }
                        try await outbound.write(.text(text))
                    }
                    // The outbox finished: the reader is done, refused the client, or it was too slow.
                    let code = connection.closeCode
                    try await outbound.close(code, reason: code == .goingAway ? "closing" : "invalid UTF-8 in a text frame")
                } catch {
                    // The socket is already gone; the reader side notices on its own.
                }
            }
            var assembler = MessageAssembler(limit: maxMessageSize)
            do {
                reading: for try await frame in inbound {
                    switch assembler.append(frame) {
                    case .message(let bytes, let isText):
                        // RFC 6455 §8.1: a text message that is not UTF-8 fails the connection
                        // with 1007; nothing in it is read.
                        if isText, String(validating: bytes, as: UTF8.self) == nil {
                            connection.close(with: .dataInconsistentWithMessage)
                            break reading
                        }
                        // Decoded here, in this connection's task: the coordinator handles one
                        // request at a time, and a costly frame must not hold up other clients.
                        let decoded = RequestDecoder.envelope(of: Data(bytes), limits: frameLimits)
                        await coordinator.receive(decoded, from: connection)
                    case .tooLarge(let size):
                        await coordinator.reject(
                            ProtocolError(.messageTooLarge, "message of \(size) bytes exceeds the \(maxMessageSize)-byte limit"),
                            to: connection)
                    case nil:
                        continue
                    }
                }
            } catch {
                // Connection reset or protocol violation: treated like a close.
            }
            continuation.finish()
            await group.waitForAll()
        }
        await coordinator.disconnected(connection)
    }
}
