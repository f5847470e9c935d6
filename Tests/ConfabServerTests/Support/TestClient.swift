import ConfabProtocol
import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket

/// A real WebSocket client speaking the confab protocol, for tests: send typed requests, await
/// responses and events with a deadline.
actor TestClient {
    enum Failure: Error, CustomStringConvertible {
        case timedOut(String)
        case closed(String)
        case unexpected(String)

        var description: String {
            switch self {
            case .timedOut(let what): "timed out waiting for \(what)"
            case .closed(let what): "connection closed while waiting for \(what)"
            case .unexpected(let what): what
            }
        }
    }

    struct Frame: Sendable {
        let header: MessageHeader
        let text: String
    }

    private struct Waiter {
        let description: String
        let matches: @Sendable (Frame) -> Bool
        let continuation: CheckedContinuation<Frame, any Error>
    }

    static let defaultTimeout: Duration = .seconds(5)

    private var frames: [Frame] = []
    private var consumed: Set<Int> = []
    private var waiters: [UUID: Waiter] = [:]
    private var writer: WebSocketOutboundWriter?
    private var openWaiters: [CheckedContinuation<Void, any Error>] = []
    private var connection: Task<Void, Never>?
    private var nextRequestId = 0
    private(set) var isClosed = false
    private var frozen = false
    private(set) var userId: String?
    private(set) var connectionId: String?
    /// The close code the server sent, once it closed the connection.
    private(set) var serverCloseCode: WebSocketErrorCode?

    /// Connects (no hello yet).
    static func connect(to url: String) async throws -> TestClient {
        let client = TestClient()
        await client.start(url: url)
        try await client.waitUntilOpen()
        return client
    }

    /// Connects and says hello with a bare user id (dev-auth servers).
    static func connect(to url: String, as userId: String) async throws -> TestClient {
        let client = try await connect(to: url)
        _ = try await client.send(HelloRequest(userId: userId, clientName: "test"))
        return client
    }

    private func start(url: String) {
        // Holds the client until the socket closes; close() ends it.
        connection = Task { [self] in
            do {
                var logger = Logger(label: "test-client")
                logger.logLevel = .critical
                let closeFrame = try await WebSocketClient.connect(
                    url: url, configuration: .init(maxFrameSize: 1 << 21), logger: logger
                ) { inbound, outbound, _ in
                    await self.opened(outbound)
                    for try await message in inbound.messages(maxSize: 1 << 21) {
                        // A frozen client stops reading, so it no longer answers pings either.
                        if await self.frozen { try await Task.sleep(for: .seconds(3600)) }
                        if case .text(let text) = message { await self.deliver(text) }
                    }
                }
                await self.closedBy(closeFrame?.closeCode)
            } catch {}
            await self.closed()
        }
    }

    private func opened(_ writer: WebSocketOutboundWriter) {
        self.writer = writer
        for waiter in openWaiters { waiter.resume() }
        openWaiters.removeAll()
    }

    private func waitUntilOpen() async throws {
        if writer != nil { return }
        if isClosed { throw Failure.closed("the connection to open") }
        try await withCheckedThrowingContinuation { openWaiters.append($0) }
    }

    private func closedBy(_ code: WebSocketErrorCode?) {
        serverCloseCode = code
    }

    private func closed() {
        isClosed = true
        for waiter in openWaiters { waiter.resume(throwing: Failure.closed("the connection to open")) }
        openWaiters.removeAll()
        for (_, waiter) in waiters { waiter.continuation.resume(throwing: Failure.closed(waiter.description)) }
        waiters.removeAll()
    }

    private func deliver(_ text: String) {
        guard let header = try? JSONDecoder().decode(MessageHeader.self, from: Data(text.utf8)) else { return }
        let frame = Frame(header: header, text: text)
        frames.append(frame)
        let index = frames.count - 1
        for (id, waiter) in waiters where waiter.matches(frame) {
            consumed.insert(index)
            waiters[id] = nil
            waiter.continuation.resume(returning: frame)
            return
        }
    }

    /// Waits for the first frame, received or to come, that `matches` and nobody consumed yet.
    func waitForFrame(
        _ description: String, timeout: Duration = TestClient.defaultTimeout, matching matches: @escaping @Sendable (Frame) -> Bool
    ) async throws -> Frame {
        if let index = frames.indices.first(where: { !consumed.contains($0) && matches(frames[$0]) }) {
            consumed.insert(index)
            return frames[index]
        }
        if isClosed { throw Failure.closed(description) }
        let id = UUID()
        return try await withCheckedThrowingContinuation { continuation in
            waiters[id] = Waiter(description: description, matches: matches, continuation: continuation)
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.expire(id)
            }
        }
    }

    private func expire(_ id: UUID) {
        guard let waiter = waiters.removeValue(forKey: id) else { return }
        waiter.continuation.resume(throwing: Failure.timedOut(waiter.description))
    }

    // MARK: Requests

    /// Sends a request and returns its response; an error answer is thrown as `ProtocolError`.
    func send<Request: ConfabRequest>(_ request: Request, timeout: Duration = TestClient.defaultTimeout) async throws -> Request.Response {
        nextRequestId += 1
        let id = "r\(nextRequestId)"
        let text = String(decoding: try ConfabJSON.encoder().encode(RequestEnvelope(id: id, payload: request)), as: UTF8.self)
        let frame = try await sendText(text, expectingReplyTo: id, timeout: timeout)
        if frame.header.kind == .error {
            throw try ConfabJSON.decoder().decode(ErrorEnvelope.self, from: Data(frame.text.utf8)).error
        }
        let response = try ConfabJSON.decoder().decode(ResponseEnvelope<Request.Response>.self, from: Data(frame.text.utf8)).payload
        if let hello = response as? HelloResponse {
            userId = hello.userId
            connectionId = hello.connectionId
        }
        return response
    }

    /// Sends a request that must fail; returns the error.
    func sendExpectingError<Request: ConfabRequest>(_ request: Request) async throws -> ProtocolError {
        do {
            let response = try await send(request)
            throw Failure.unexpected("expected an error for \(Request.type.rawValue), got \(response)")
        } catch let error as ProtocolError {
            return error
        }
    }

    /// Sends raw text; if `expectingReplyTo` is given, returns the response or error with that id.
    @discardableResult
    func sendText(_ text: String, expectingReplyTo id: String? = nil, timeout: Duration = TestClient.defaultTimeout) async throws -> Frame {
        guard let writer else { throw Failure.closed("sending") }
        try await writer.write(.text(text))
        return try await waitForFrame("reply to \(id ?? "unidentified frame")", timeout: timeout) { frame in
            frame.header.kind != .event && frame.header.id == id
        }
    }

    /// Sends a text frame whose payload is `bytes` as they are (they need not be UTF-8).
    func sendRawText(_ bytes: [UInt8]) async throws {
        guard let writer else { throw Failure.closed("sending") }
        try await writer.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: bytes))))
    }

    /// Sends a binary frame of raw bytes and returns the error that answers it.
    func sendBinary(_ bytes: [UInt8]) async throws -> ErrorEnvelope {
        guard let writer else { throw Failure.closed("sending") }
        try await writer.write(.binary(.init(bytes: bytes)))
        let frame = try await waitForFrame("error reply") { $0.header.kind == .error }
        return try ConfabJSON.decoder().decode(ErrorEnvelope.self, from: Data(frame.text.utf8))
    }

    /// Decodes an error frame.
    static func error(in frame: Frame) throws -> ErrorEnvelope {
        try ConfabJSON.decoder().decode(ErrorEnvelope.self, from: Data(frame.text.utf8))
    }

    /// A round trip on this connection: every event sent to it before now has arrived once this
    /// returns (the server writes a connection's frames in order).
    func barrier() async throws {
        _ = try await send(HealthCheckRequest())
    }

    // MARK: Events

    /// The next unconsumed event of `type` (for which `matching` holds), waiting up to `timeout`.
    func nextEvent(
        _ type: EventType, timeout: Duration = TestClient.defaultTimeout,
        matching: @escaping @Sendable (ServerEvent) -> Bool = { _ in true }
    ) async throws -> ServerEvent {
        let frame = try await waitForFrame("event \(type.rawValue)", timeout: timeout) { frame in
            guard frame.header.kind == .event, frame.header.type == type.rawValue,
                  let envelope = try? ConfabJSON.decoder().decode(EventEnvelope.self, from: Data(frame.text.utf8))
            else { return false }
            return matching(envelope.event)
        }
        return try ConfabJSON.decoder().decode(EventEnvelope.self, from: Data(frame.text.utf8)).event
    }

    /// Events of `type` received so far (consumed or not). Call after `barrier()` to check absence.
    func receivedEvents(_ type: EventType) -> [ServerEvent] {
        frames.filter { $0.header.kind == .event && $0.header.type == type.rawValue }.compactMap {
            try? ConfabJSON.decoder().decode(EventEnvelope.self, from: Data($0.text.utf8)).event
        }
    }

    /// Every frame's text received so far, in order.
    func receivedTexts() -> [String] {
        frames.map(\.text)
    }

    /// How many frames answered the request with this id (checks that nothing answered).
    func receivedFrames(withId id: String) -> Int {
        frames.filter { $0.header.id == id }.count
    }

    /// Stops reading frames and answering pings, like a frozen or vanished client.
    func freeze() {
        frozen = true
    }

    func waitUntilClosed(timeout: Duration = TestClient.defaultTimeout) async throws {
        let deadline = ContinuousClock.now + timeout
        while !isClosed {
            // Only time can tell when a socket closes; poll with a deadline.
            guard ContinuousClock.now < deadline else { throw Failure.timedOut("the connection to close") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func close() async {
        if let writer { try? await writer.close(.normalClosure, reason: nil) }
        connection?.cancel()
        await connection?.value
    }
}
