import Foundation
import HummingbirdWSClient
import JanusProtocol
import Logging

/// A Janus API client over its WebSocket transport: JSON requests matched to their answers by
/// transaction. The coordinator uses it to run the videoroom (create rooms, edit their `allowed`
/// lists, destroy them); tests use it to act as a client.
///
/// How a Confab client uses the `MediaEndpoint {janusURL, room, token}` from its join response
/// (the same API, spoken by the client's own Janus client):
/// 1. Open a WebSocket to `janusURL` asking for subprotocol `janus-protocol` (Janus refuses
///    connections without it).
/// 2. `{"janus":"create","transaction":T}` → `data.id` is the session. Keep it alive with
///    `{"janus":"keepalive","session_id":S}` at least every 25 s: the managed Janus drops
///    sessions after 60 s of silence (`session_timeout`), and its WebSocket pings a quiet
///    connection after 5 s and closes it 5 s later without a pong.
/// 3. `{"janus":"attach","plugin":"janus.plugin.videoroom","session_id":S}` → `data.id` is the
///    publisher handle.
/// 4. On it, `{"janus":"message","body":{"request":"join","ptype":"publisher","room":ROOM,
///    "token":TOKEN,"display":"<user id>"}}` → an `ack`, then an `event` whose
///    `plugindata.data` is `{"videoroom":"joined","id":…,"private_id":P,"publishers":[…]}`.
///    A token that is not in the room's allowed list gets `error_code` 433 instead. Then
///    `{"request":"publish"}` with the offer (jsep) as in ARCHITECTURE.md's recipe.
/// 5. Per remote publisher (from `publishers` in `joined` and later events), attach another
///    handle and `{"request":"join","ptype":"subscriber","room":ROOM,"private_id":P,
///    "streams":[{"feed":ID}]}`. Rooms require `private_id` (`require_pvtid`): Janus checks
///    tokens only for publishers, so subscribing is tied to the caller's own admitted
///    publisher. Subscribe only after step 4 succeeded.
/// 6. `talking`/`stopped-talking` events arrive on the publisher handle (rooms have
///    `audiolevel_event`). On leave, `{"request":"leave"}` or just close the socket.
/// The token is good for this join only: the coordinator removes it from the room when the
/// participant leaves, so a new join (and a new token) is needed to publish again. When the
/// call ends the room is destroyed and Janus sends `destroyed` to everyone in it.
actor JanusSignallingClient {
    nonisolated let url: String
    private let logger: Logger
    private let outbox: AsyncStream<String>
    private let outboxInput: AsyncStream<String>.Continuation
    private var connection: Task<Void, Never>?
    private var pending: [String: PendingRequest] = [:]
    private var nextTransaction: UInt64 = 0
    private(set) var isClosed = false
    /// Those waiting in `untilClosed`.
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []

    private struct PendingRequest {
        var command: JanusCommand
        var continuation: CheckedContinuation<JanusReply, any Error>
    }

    /// Janus messages are small; SDP offers are the largest at a few KiB.
    private static let maxFrameSize = 1 << 20

    /// Opens the WebSocket; throws `JanusError.unreachable` when that fails within `timeout`.
    static func connect(to url: String, logger: Logger, timeout: Duration = .seconds(5)) async throws -> JanusSignallingClient {
        let client = JanusSignallingClient(url: url, logger: logger)
        let isFirst = await firstOpening.enter()
        do {
            try await client.open(timeout: timeout)
        } catch {
            if isFirst { await firstOpening.leave() }
            throw error
        }
        if isFirst { await firstOpening.leave() }
        return client
    }

    /// The process's first WebSocket to Janus is opened alone; the others wait for it (once).
    /// A server given two Janus nodes opens both at start, at once, on two of NIO's threads,
    /// and it died there (SIGSEGV, twice in about ten clean-clone CI runs of `JanusNodesTests`):
    /// Swift's runtime crashed inside its generic metadata cache while both threads set up the
    /// WebSocket client's HTTP upgrade pipeline for the first time (`HTTPPart`'s metadata,
    /// `configureUpgradableHTTPClientPipeline`). Once one connection has set it up, the types
    /// are made and later connections only read them.
    private static let firstOpening = FirstOpening()

    private init(url: String, logger: Logger) {
        self.url = url
        self.logger = logger
        (outbox, outboxInput) = AsyncStream.makeStream(of: String.self)
    }

    private func open(timeout: Duration) async throws {
        let (openings, opened) = AsyncStream.makeStream(of: Result<Void, JanusError>.self)
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: Self.maxFrameSize, additionalHeaders: [.secWebSocketProtocol: "janus-protocol"],
            closeTimeout: .seconds(1))
        var socketLogger = logger
        // The WebSocket library logs every frame at trace level.
        socketLogger.logLevel = max(logger.logLevel, .notice)
        let outbox = outbox, url = url
        connection = Task { [socketLogger] in
            do {
                try await WebSocketClient.connect(url: url, configuration: configuration, logger: socketLogger) { inbound, outbound, _ in
                    opened.yield(.success(()))
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await text in outbox { try await outbound.write(.text(text)) }
                        }
                        defer { group.cancelAll() }
                        for try await message in inbound.messages(maxSize: Self.maxFrameSize) {
                            if case .text(let text) = message { await self.received(text) }
                        }
                    }
                }
                opened.yield(.failure(.unreachable(url: url, reason: "closed during the handshake")))
            } catch {
                opened.yield(.failure(.unreachable(url: url, reason: "\(error)")))
            }
            opened.finish()
            self.socketClosed()
        }
        let first = try await withDeadline(timeout, JanusError.unreachable(url: url, reason: "no WebSocket handshake in \(timeout)")) {
            var iterator = openings.makeAsyncIterator()
            return await iterator.next() ?? .failure(.unreachable(url: url, reason: "closed"))
        }
        if case .failure(let error) = first {
            close()
            throw error
        }
    }

    /// Closes the WebSocket; waiting requests fail with `disconnected`.
    func close() {
        connection?.cancel()
        outboxInput.finish()
        socketClosed()
    }

    /// Returns once the WebSocket has closed (Janus died, or `close` was called): how a node's
    /// health learns at once that its Janus went away, rather than at its next request.
    func untilClosed() async {
        if isClosed { return }
        await withCheckedContinuation { closeWaiters.append($0) }
    }

    // MARK: Requests

    /// Sends `command` with a fresh transaction and returns Janus's answer to it: `success`,
    /// `event` (asynchronous plugin requests), `server_info` or `ack` (keepalive). Refusals
    /// by the core or the plugin throw.
    func request(_ command: JanusCommand, timeout: Duration = .seconds(5)) async throws -> JanusReply {
        guard !isClosed else { throw Self.closedError }
        nextTransaction += 1
        let transaction = "confab-\(nextTransaction)"
        let text = try JanusRequest(transaction: transaction, command: command).text()
        return try await withCheckedThrowingContinuation { continuation in
            pending[transaction] = PendingRequest(command: command, continuation: continuation)
            outboxInput.yield(text)
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.fail(transaction, JanusError.timedOut(request: command.name))
            }
        }
    }

    /// `create`: a new Janus session, returned by id.
    func createSession() async throws -> UInt64 {
        try await request(.createSession).createdID()
    }

    /// `attach` to the videoroom plugin: a new handle in `session`.
    func attachVideoRoom(session: UInt64) async throws -> UInt64 {
        try await request(.attach(session: session, plugin: .videoRoom)).createdID()
    }

    func keepalive(session: UInt64) async throws {
        _ = try await request(.keepalive(session: session))
    }

    func destroySession(_ session: UInt64) async throws {
        _ = try await request(.destroySession(session: session))
    }

    /// A videoroom request on `handle`; returns the plugin's data (`created`, `joined`,
    /// `participants` …) and throws `pluginRefused` when it carries an `error_code`.
    func videoRoom(_ body: VideoRoomRequest, session: UInt64, handle: UInt64, timeout: Duration = .seconds(5)) async throws -> VideoRoomResponse {
        try await request(.message(session: session, handle: handle, body: body), timeout: timeout).pluginAnswer().data
    }

    // MARK: Answers

    private func received(_ text: String) {
        // Janus relays strings that clients chose (display names); JanusReply.decode checks the
        // frame's size and depth before parsing it.
        let reply: JanusReply
        do {
            reply = try JanusReply.decode(text)
        } catch {
            logger.warning("dropped a frame from Janus", metadata: ["reason": "\(error)", "frame": "\(text.prefix(200))"])
            // A request waiting for this frame would otherwise wait for its deadline.
            if let transaction = JanusReply.transaction(ofUnreadable: text) {
                fail(transaction, .unexpectedReply("\(error)"))
            }
            return
        }
        // Events without a transaction (talking, publishers joining, timeouts) concern clients
        // in the room, not the coordinator.
        guard let transaction = reply.transaction, let request = pending[transaction] else { return }
        switch reply.outcome(for: request.command) {
        case .waiting:
            return
        case .failed(let error):
            pending[transaction] = nil
            request.continuation.resume(throwing: error)
        case .answered(let answer):
            pending[transaction] = nil
            request.continuation.resume(returning: answer)
        }
    }

    private func fail(_ transaction: String, _ error: JanusError) {
        pending.removeValue(forKey: transaction)?.continuation.resume(throwing: error)
    }

    private static let closedError = JanusError.disconnected(reason: "the connection to Janus closed")

    private func socketClosed() {
        isClosed = true
        let waiting = pending
        pending.removeAll()
        for request in waiting.values { request.continuation.resume(throwing: Self.closedError) }
        let waiters = closeWaiters
        closeWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}

/// Runs `operation`, throwing `timeoutError` if it has not finished after `timeout`.
func withDeadline<T: Sendable>(
    _ timeout: Duration, _ timeoutError: any Error, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw timeoutError
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw timeoutError }
        return first
    }
}

/// Lets the first caller through alone; the others wait until it has left, then all pass at once
/// for good (`JanusSignallingClient.firstOpening`).
actor FirstOpening {
    private var isDone = false
    private var isUnderWay = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Returns once the caller may go on: true for the first caller, which must `leave`.
    func enter() async -> Bool {
        if isDone { return false }
        if !isUnderWay {
            isUnderWay = true
            return true
        }
        await withCheckedContinuation { waiting.append($0) }
        return false
    }

    func leave() {
        isDone = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}
