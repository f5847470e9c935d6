import ConfabProtocol
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO

/// Events between coordinators that share one PostgreSQL, through its LISTEN/NOTIFY on the
/// channel `confab_events`: nothing to run beside the database the replicas already need.
///
/// Publishing goes through the store's connection (`PostgresCallStore.notify`), inside the
/// coordinator's request like the store's writes, so events leave in the order they were
/// decided. Listening holds a connection of its own (a listening connection is busy for good),
/// reopened after it drops; events sent while it was down are lost (NOTIFY keeps nothing): the
/// durable state is in the database, and participants are told again on `.hello`.
final class ReplicaBus: Sendable {
    static let channel = "confab_events"
    /// This server's id in the messages, to skip its own.
    let replicaId = UUID().uuidString.lowercased()
    private let store: PostgresCallStore
    private let logger: Logger
    private let listening = NIOLockedValueBox<Task<Void, Never>?>(nil)

    init(store: PostgresCallStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Sends `event` to the other replicas. A failure is logged, not thrown: the request that
    /// caused it has succeeded here.
    func publish(_ event: ReplicaEvent) {
        do {
            let payload = String(decoding: try ConfabJSON.encoder().encode(ReplicaMessage(origin: replicaId, event: event)), as: UTF8.self)
            try store.notify(channel: Self.channel, payload: payload)
        } catch {
            logger.error("could not tell the other replicas", metadata: ["event": "\(event)", "error": "\(error)"])
        }
    }

    /// Listens until `stop`, handing every other replica's event to `deliver`, in order.
    /// Returns once the first LISTEN is in place (or it failed, then it keeps retrying), so
    /// that a server says `listening` only when rings from other replicas can reach it.
    func start(deliver: @escaping @Sendable (ReplicaMessage) async -> Void) async {
        let location = store.location, logger = logger, replicaId = replicaId
        let (listeningStarted, started) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            defer { started.finish() }
            var retryDelay = Duration.milliseconds(100)
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(
                        configuration: PostgresCallStore.connectionConfiguration(location), id: 2, logger: logger)
                    do {
                        try await connection.listen(on: Self.channel) { notifications in
                            started.yield()
                            retryDelay = .milliseconds(100)
                            for try await notification in notifications {
                                guard let message = try? ConfabJSON.decoder().decode(
                                    ReplicaMessage.self, from: Data(notification.payload.utf8))
                                else {
                                    logger.warning("unreadable replica event ignored", metadata: ["payload": "\(notification.payload.prefix(200))"])
                                    continue
                                }
                                if message.origin != replicaId { await deliver(message) }
                            }
                        }
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                    try? await connection.close()
                } catch {
                    if Task.isCancelled { break }
                    started.yield()
                    logger.error("listening to the other replicas failed; retrying", metadata: ["error": "\(PostgresCallStore.explain(error))"])
                }
                try? await Task.sleep(for: retryDelay)
                retryDelay = min(retryDelay * 2, .seconds(5))
            }
        }
        listening.withLockedValue { $0 = task }
        var iterator = listeningStarted.makeAsyncIterator()
        _ = await iterator.next()
    }

    func stop() {
        listening.withLockedValue { task in
            task?.cancel()
            task = nil
        }
    }
}
