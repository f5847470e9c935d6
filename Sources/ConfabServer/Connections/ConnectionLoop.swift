import ConfabProtocol
import Foundation
import HummingbirdWebSocket

/// Runs one client's WebSocket: reads messages into the coordinator and writes its outbox.
enum ConnectionLoop {
    /// How many frames may wait for a slow client before it is dropped.
    static let outboxCapacity = 4096

    static func run(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, coordinator: CallCoordinator, maxMessageSize: Int
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
                    // The outbox finished: either the reader is done or the client was too slow.
                    try await outbound.close(.goingAway, reason: "closing")
                } catch {
                    // The socket is already gone; the reader side notices on its own.
                }
            }
            var assembler = MessageAssembler(limit: maxMessageSize)
            do {
                for try await frame in inbound {
                    switch assembler.append(frame) {
                    case .message(let bytes):
                        await coordinator.receive(Data(bytes), from: connection)
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
