import ConfabProtocol
import Foundation
import Logging

/// A session on a Janus server, over its WebSocket API, with handles attached to plugins.
///
/// Use: `let session = JanusSession(url:)`, `try await session.connect()`, then
/// `try await session.attach(plugin: "janus.plugin.videoroom")` for each peer connection.
/// Keepalives are sent well inside Janus's `session_timeout`. When the socket closes or Janus
/// reports the session gone, `onClosed` runs once and every pending request fails.
@MainActor
public final class JanusSession {
    public let url: String
    public private(set) var sessionID: UInt64?
    /// Runs once when the connection to Janus ends (with the reason).
    public var onClosed: (@MainActor (JanusError) -> Void)?

    private let logger: Logger
    private let keepaliveInterval: Duration
    private var socket: TextWebSocket?
    private var socketTask: Task<Void, Never>?
    private var keepaliveTask: Task<Void, Never>?
    private var pending: [String: CheckedContinuation<JanusIncoming, any Error>] = [:]
    private var handles: [UInt64: JanusHandle] = [:]
    private var transactionNumber = 0
    private var isClosed = false

    public init(url: String, keepaliveInterval: Duration = .seconds(20), logger: Logger = Logger(label: "confab.janus")) {
        self.url = url
        self.keepaliveInterval = keepaliveInterval
        self.logger = logger
    }

    /// Opens the WebSocket and creates the Janus session.
    public func connect(timeout: Duration = .seconds(10)) async throws {
        let socket = TextWebSocket(url: url, peer: "Janus", subprotocol: "janus-protocol", logger: logger)
        self.socket = socket
        let opened = AsyncStream.makeStream(of: Bool.self)
        let owner = WeakSession(self)
        socketTask = Task.detached {
            var reason = JanusError(code: 0, reason: "the connection to the media server closed")
            do {
                try await socket.run(opened: { opened.continuation.yield(true) },
                                     received: { text in await owner.session?.receive(text) })
            } catch {
                reason = JanusError(code: 0, reason: "the connection to the media server failed: \(error)")
            }
            opened.continuation.yield(false)
            await owner.session?.closed(reason)
        }
        let giveUp = Task { try await Task.sleep(for: timeout); opened.continuation.yield(false) }
        var didOpen = false
        for await value in opened.stream { didOpen = value; break }
        giveUp.cancel()
        guard didOpen else { throw JanusError(code: 0, reason: "could not connect to the media server at \(url)") }
        let created = try await send(JanusOutgoing(janus: "create", transaction: ""), timeout: timeout)
        guard let id = created.data?.id else { throw JanusError(code: 0, reason: "Janus created no session") }
        sessionID = id
        startKeepalive()
    }

    /// Attaches a handle to `plugin` ("janus.plugin.videoroom").
    public func attach(plugin: String) async throws -> JanusHandle {
        let reply = try await send(JanusOutgoing(janus: "attach", transaction: "", session_id: sessionID, plugin: plugin))
        guard let id = reply.data?.id else { throw JanusError(code: 0, reason: "Janus attached no handle") }
        let handle = JanusHandle(id: id, session: self)
        handles[id] = handle
        return handle
    }

    /// Destroys the session and closes the socket.
    public func close() async {
        guard !isClosed else { return }
        if sessionID != nil {
            _ = try? await send(JanusOutgoing(janus: "destroy", transaction: "", session_id: sessionID), timeout: .seconds(2))
        }
        closed(JanusError(code: 0, reason: "closed"), notify: false)
    }

    // MARK: Plumbing for handles

    func detach(_ handle: JanusHandle) async {
        handles[handle.id] = nil
        _ = try? await send(JanusOutgoing(janus: "detach", transaction: "", session_id: sessionID, handle_id: handle.id), timeout: .seconds(2))
    }

    /// Sends a message and waits for its answer: `success`, a plugin `event` with the same
    /// transaction (asynchronous plugin requests first get an `ack`, which is skipped), or an error.
    func send(_ message: JanusOutgoing, timeout: Duration = .seconds(10)) async throws -> JanusIncoming {
        guard !isClosed, let socket else { throw JanusError(code: 0, reason: "not connected to the media server") }
        transactionNumber += 1
        var message = message
        message.transaction = "t\(transactionNumber)"
        let transaction = message.transaction
        let text = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
        let kind = message.janus
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.fail(transaction, JanusError(code: 0, reason: "the media server did not answer \(kind) in time"))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            pending[transaction] = continuation
            socket.send(text)
        }
    }

    /// Sends without waiting for the answer (trickled candidates, keepalives).
    func post(_ message: JanusOutgoing) {
        guard !isClosed, let socket else { return }
        transactionNumber += 1
        var message = message
        message.transaction = "t\(transactionNumber)"
        if let data = try? JSONEncoder().encode(message) { socket.send(String(decoding: data, as: UTF8.self)) }
    }

    // MARK: Incoming

    private func receive(_ text: String) {
        let message: JanusIncoming
        do {
            // Checked before parsing: see `FrameGuard` (a deep frame would crash the app).
            try FrameGuard.check(text, limits: .janus)
            message = try JSONDecoder().decode(JanusIncoming.self, from: Data(text.utf8))
        } catch {
            logger.warning("dropped an unreadable message from Janus", metadata: ["error": "\(error)"])
            return
        }
        if message.janus == "ack" { return }
        if let transaction = message.transaction, let continuation = pending.removeValue(forKey: transaction) {
            if let error = message.error {
                continuation.resume(throwing: JanusError(code: error.code, reason: error.reason))
            } else if let data = message.plugindata?.data, let code = data["error_code"]?.numberValue {
                continuation.resume(throwing: JanusError(code: Int(code), reason: data["error"]?.stringValue ?? "plugin error"))
            } else {
                continuation.resume(returning: message)
            }
            return
        }
        if message.janus == "timeout" {
            return closed(JanusError(code: 0, reason: "the media server timed out our session"))
        }
        guard let sender = message.sender, let handle = handles[sender] else { return }
        handle.deliver(JanusHandleEvent(kind: message.janus, data: message.plugindata?.data, jsep: message.jsep))
    }

    private func fail(_ transaction: String, _ error: JanusError) {
        pending.removeValue(forKey: transaction)?.resume(throwing: error)
    }

    private func closed(_ reason: JanusError, notify: Bool = true) {
        guard !isClosed else { return }
        isClosed = true
        keepaliveTask?.cancel()
        socket?.finish()
        socketTask?.cancel()
        let waiting = pending
        pending = [:]
        waiting.values.forEach { $0.resume(throwing: reason) }
        handles.values.forEach { $0.deliver(JanusHandleEvent(kind: "closed", data: nil, jsep: nil)) }
        handles = [:]
        if notify { onClosed?(reason) }
    }

    private func startKeepalive() {
        keepaliveTask = Task { [weak self, keepaliveInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: keepaliveInterval)
                guard let self, !Task.isCancelled else { return }
                self.post(JanusOutgoing(janus: "keepalive", transaction: "", session_id: self.sessionID))
            }
        }
    }
}

/// A handle attached to a plugin: plugin requests (with an optional JSEP), trickled candidates,
/// and the plugin's unsolicited events.
@MainActor
public final class JanusHandle {
    public let id: UInt64
    private weak var session: JanusSession?
    /// Unsolicited events for this handle, in order.
    public var onEvent: (@MainActor (JanusHandleEvent) -> Void)?

    init(id: UInt64, session: JanusSession) {
        self.id = id
        self.session = session
    }

    /// Sends a plugin request and returns the plugin's answer.
    public func request(_ body: [String: JSONValue], jsep: JSEP? = nil, timeout: Duration = .seconds(10)) async throws -> JanusReply {
        guard let session else { throw JanusError(code: 0, reason: "the media session is gone") }
        let reply = try await session.send(JanusOutgoing(janus: "message", transaction: "", session_id: session.sessionID,
                                                         handle_id: id, body: .object(body), jsep: jsep), timeout: timeout)
        return JanusReply(data: reply.plugindata?.data ?? .null, jsep: reply.jsep)
    }

    public func trickle(mlineIndex: Int, candidate: String) {
        session?.post(JanusOutgoing(janus: "trickle", transaction: "", session_id: session?.sessionID, handle_id: id,
                                    candidate: JanusCandidate(sdpMLineIndex: mlineIndex, candidate: candidate)))
    }

    public func detach() async { await session?.detach(self) }

    func deliver(_ event: JanusHandleEvent) { onEvent?(event) }
}

/// Lets the socket task reach its session without keeping it alive.
private final class WeakSession: @unchecked Sendable {
    weak var session: JanusSession?
    init(_ session: JanusSession) { self.session = session }
}
