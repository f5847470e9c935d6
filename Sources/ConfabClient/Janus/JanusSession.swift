import FoundationEssentials
import JanusProtocol
import Logging
import Synchronization

/// A session on a Janus server, over its WebSocket API, with handles attached to plugins.
///
/// Use: `let session = JanusSession(url:)`, `try await session.connect()`, then
/// `try await session.attachVideoRoom()` for each peer connection. Keepalives are sent well
/// inside Janus's `session_timeout`. When the socket closes or Janus reports the session gone,
/// `onClosed` runs once and every pending request fails.
@MainActor
public final class JanusSession {
    public let url: String
    public private(set) var sessionID: UInt64?
    /// Runs once when the connection to Janus ends (with the reason).
    public var onClosed: (@MainActor (JanusError) -> Void)?

    private let logger: Logger
    private let keepaliveInterval: Duration
    /// Whose certificates a `wss://` Janus may present.
    private let trust: ServerTrust
    private var socket: TextWebSocket?
    private var socketTask: Task<Void, Never>?
    /// Whether the socket opened (nil) or why it could not, once `startConnecting` ran.
    private var opening: (stream: AsyncStream<JanusError?>, continuation: AsyncStream<JanusError?>.Continuation)?
    private var keepaliveTask: Task<Void, Never>?
    private var pending: [String: PendingRequest] = [:]
    private var handles: [UInt64: JanusHandle] = [:]
    private var transactionNumber = 0
    private var isClosed = false

    private struct PendingRequest {
        var command: JanusCommand
        var continuation: CheckedContinuation<JanusReply, any Error>
    }

    public init(url: String, keepaliveInterval: Duration = .seconds(20), trust: ServerTrust = .system,
                logger: Logger = Logger(label: "confab.janus")) {
        self.url = url
        self.trust = trust
        self.keepaliveInterval = keepaliveInterval
        self.logger = logger
    }

    /// Starts opening the WebSocket and returns at once: what the caller does meanwhile (building
    /// a call's pipelines) overlaps the network's round trips. `connect` finishes the work.
    public func startConnecting() {
        guard opening == nil, !isClosed else { return }
        let socket = TextWebSocket(url: url, peer: "Janus", subprotocol: "janus-protocol", trust: trust, logger: logger)
        self.socket = socket
        let opened = AsyncStream.makeStream(of: JanusError?.self)
        opening = opened
        let owner = WeakSession(self)
        let url = url
        socketTask = Task.detached {
            let didOpen = Mutex(false)
            var reason = JanusError.disconnected(reason: "the connection to the media server closed")
            do {
                try await socket.run(opened: { didOpen.withLock { $0 = true }; opened.continuation.yield(nil) },
                                     received: { text in await owner.session?.receive(text) })
            } catch {
                reason = didOpen.withLock { $0 }
                    ? .disconnected(reason: "the connection to the media server failed: \(error)")
                    : .unreachable(url: url, reason: ConnectionFailure.plainReason(error))
            }
            opened.continuation.yield(reason)
            // A socket that never opened is `connect`'s to report (it is waiting for it, or will
            // be): telling `onClosed` too made two reports of one failure race each other.
            await owner.session?.closed(reason, notify: didOpen.withLock { $0 })
        }
    }

    /// Opens the WebSocket (unless `startConnecting` already began to) and creates the Janus session.
    public func connect(timeout: Duration = .seconds(10)) async throws {
        startConnecting()
        guard let opening else { throw JanusError.disconnected(reason: "the session was closed before it connected") }
        let url = url
        let giveUp = Task {
            try await Task.sleep(for: timeout)
            opening.continuation.yield(.unreachable(url: url, reason: "no connection within \(timeout)"))
        }
        var failure: JanusError? = .disconnected(reason: "the session was closed before it connected")
        for await value in opening.stream { failure = value; break }
        giveUp.cancel()
        if let failure { throw failure }
        sessionID = try await send(.createSession, timeout: timeout).createdID()
        startKeepalive()
    }

    /// Attaches a handle to the VideoRoom plugin.
    public func attachVideoRoom() async throws -> JanusHandle {
        let id = try await send(.attach(session: try currentSession(), plugin: .videoRoom)).createdID()
        let handle = JanusHandle(id: id, session: self)
        handles[id] = handle
        return handle
    }

    /// Destroys the session and closes the socket.
    public func close() async {
        guard !isClosed else { return }
        if let sessionID {
            _ = try? await send(.destroySession(session: sessionID), timeout: .seconds(2))
        }
        closed(.disconnected(reason: "closed"), notify: false)
    }

    // MARK: Plumbing for handles

    func currentSession() throws(JanusError) -> UInt64 {
        guard !isClosed, let sessionID else { throw .disconnected(reason: "not connected to the media server") }
        return sessionID
    }

    func detach(_ handle: JanusHandle) async {
        handles[handle.id] = nil
        guard let session = try? currentSession() else { return }
        _ = try? await send(.detach(session: session, handle: handle.id), timeout: .seconds(2))
    }

    /// Sends a request and waits for its answer: `success`, a plugin `event` with the same
    /// transaction (asynchronous plugin requests first get an `ack`, which is skipped), or an error.
    func send(_ command: JanusCommand, timeout: Duration = .seconds(10)) async throws -> JanusReply {
        guard !isClosed, let socket else { throw JanusError.disconnected(reason: "not connected to the media server") }
        let transaction = nextTransaction()
        let text = try JanusRequest(transaction: transaction, command: command).text()
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.fail(transaction, .timedOut(request: command.name))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            pending[transaction] = PendingRequest(command: command, continuation: continuation)
            socket.send(text)
        }
    }

    /// Sends without waiting for the answer (trickled candidates, keepalives: Janus only acks them).
    func post(_ command: JanusCommand) {
        guard !isClosed, let socket else { return }
        do {
            socket.send(try JanusRequest(transaction: nextTransaction(), command: command).text())
        } catch {
            logger.warning("could not encode a request to Janus", metadata: ["request": "\(command.name)", "error": "\(error)"])
        }
    }

    private func nextTransaction() -> String {
        transactionNumber += 1
        return "t\(transactionNumber)"
    }

    // MARK: Incoming

    private func receive(_ text: String) {
        let reply: JanusReply
        do {
            reply = try JanusReply.decode(text)
        } catch {
            logger.warning("dropped an unreadable message from Janus", metadata: ["error": "\(error)"])
            // A request waiting for this frame would otherwise wait for its deadline.
            if let transaction = JanusReply.transaction(ofUnreadable: text) {
                fail(transaction, .unexpectedReply("\(error)"))
            }
            return
        }
        if let transaction = reply.transaction, let request = pending[transaction] {
            switch reply.outcome(for: request.command) {
            case .waiting:
                break
            case .failed(let error):
                pending[transaction] = nil
                request.continuation.resume(throwing: error)
            case .answered(let answer):
                pending[transaction] = nil
                request.continuation.resume(returning: answer)
            }
            return
        }
        switch reply {
        case .timeout:
            closed(.sessionTimedOut)
        case .ack:
            // Keepalives and trickles are posted without waiting; their acks end here.
            break
        default:
            guard let sender = reply.sender, let handle = handles[sender] else { return }
            handle.deliver(.reply(reply))
        }
    }

    private func fail(_ transaction: String, _ error: JanusError) {
        pending.removeValue(forKey: transaction)?.continuation.resume(throwing: error)
    }

    private func closed(_ reason: JanusError, notify: Bool = true) {
        guard !isClosed else { return }
        isClosed = true
        keepaliveTask?.cancel()
        socket?.finish()
        socketTask?.cancel()
        let waiting = pending
        pending = [:]
        waiting.values.forEach { $0.continuation.resume(throwing: reason) }
        handles.values.forEach { $0.deliver(.sessionClosed) }
        handles = [:]
        if notify { onClosed?(reason) }
    }

    private func startKeepalive() {
        keepaliveTask = Task { [weak self, keepaliveInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: keepaliveInterval)
                guard let self, !Task.isCancelled, let session = self.sessionID else { return }
                self.post(.keepalive(session: session))
            }
        }
    }
}

/// Lets the socket task reach its session without keeping it alive.
private final class WeakSession: @unchecked Sendable {
    weak var session: JanusSession?
    init(_ session: JanusSession) { self.session = session }
}
