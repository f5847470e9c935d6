import ConfabProtocol
import Foundation
import NIOWebSocket
import XCTest

/// Frames built to hurt the server (issue 16, items 1, 2 and 6), sent to the real
/// `confab-server` process before sign-in: a crash must show up as a dead process, not as a
/// dead test runner, which is why these do not use the in-process `TestServer`.
final class HostileFrameTests: XCTestCase {
    private var directory: URL!
    private var server: ServerBinary!
    private var clients: [TestClient] = []

    override func setUp() async throws {
        directory = try TestServer.makeTemporaryDirectory()
        server = try await ServerBinary.launch(
            ["--host", "127.0.0.1", "--port", "0", "--db", directory.appendingPathComponent("server.sqlite").path,
             "--dev-auth", "--no-media"])
    }

    override func tearDown() async throws {
        for client in clients { await client.close() }
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private func connect(_ userId: String? = nil) async throws -> TestClient {
        let client = if let userId { try await TestClient.connect(to: server.url, as: userId) } else { try await TestClient.connect(to: server.url) }
        clients.append(client)
        return client
    }

    /// Sends `frame` from a client that has not signed in and returns the error that answers
    /// it and how long that took.
    private func sendBeforeSignIn(_ frame: String) async throws -> (ErrorEnvelope, Duration) {
        let attacker = try await connect()
        let started = ContinuousClock.now
        do {
            let reply = try await attacker.sendText(frame, expectingReplyTo: nil, timeout: .seconds(10))
            return (try TestClient.error(in: reply), ContinuousClock.now - started)
        } catch {
            // What the 513-`[` frame did before FrameGuard: SIGILL in Foundation's parser.
            if !server.isRunning { XCTFail("confab-server died (status \(server.process.terminationStatus))") }
            throw error
        }
    }

    private func assertServerStillServes(file: StaticString = #filePath, line: UInt = #line) async throws {
        XCTAssertTrue(server.isRunning, "confab-server died", file: file, line: line)
        let someone = try await connect("someone-else")
        _ = try await someone.send(HealthCheckRequest())
    }

    /// Far above the ~1 ms the guard needs, far below the 1.5 s the old decoding took; a timing
    /// bound is loose on purpose on a shared 2-core machine.
    private let quickAnswer: Duration = .milliseconds(250)

    func test_513OpenBrackets_beforeSignIn_answersNestingTooDeep_andServerKeepsServing() async throws {
        // 513 is exactly one past Foundation's parser depth limit: the frame that killed the server.
        let (error, elapsed) = try await sendBeforeSignIn(String(repeating: "[", count: 513))
        XCTAssertEqual(error.error.code, .nestingTooDeep)
        XCTAssertNil(error.id)
        XCTAssertTrue(error.error.message.contains("32 levels"), error.error.message)
        XCTAssertLessThan(elapsed, quickAnswer)
        try await assertServerStillServes()
    }

    func test_1KBFrameNested500Deep_beforeSignIn_answersQuickly_andOtherClientsAreNotHeldUp() async throws {
        let depth = 500
        let frame = #"{"kind":"request","id":"x","type":"healthCheck","payload":{"p":"#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
        XCTAssertLessThan(frame.utf8.count, 1100)
        let bystander = try await connect("bystander")
        let attacker = try await connect()

        let attackStarted = ContinuousClock.now
        async let reply = attacker.sendText(frame, expectingReplyTo: nil, timeout: .seconds(10))
        // Sent right behind the attack: requests are handled one at a time, so a slow decode
        // would hold this one up.
        _ = try await bystander.send(HealthCheckRequest())
        let bystanderWaited = ContinuousClock.now - attackStarted
        let answer: TestClient.Frame
        do {
            answer = try await reply
        } catch {
            if !server.isRunning { XCTFail("confab-server died (status \(server.process.terminationStatus))") }
            throw error
        }
        let error = try TestClient.error(in: answer)
        let elapsed = ContinuousClock.now - attackStarted

        XCTAssertEqual(error.error.code, .nestingTooDeep)
        XCTAssertLessThan(elapsed, quickAnswer)
        XCTAssertLessThan(bystanderWaited, quickAnswer)
        try await assertServerStillServes()
    }

    func test_64KiBFrameCostlyToDecode_holdsUpOnlyItsSender() async throws {
        // Within every limit, yet ~0.4 s of decoding (debug build): 32,000 numbers in `custom`.
        let frame = #"{"kind":"request","id":"big","type":"getOrCreateCall","payload":{"cid":"default:m","custom":{"x":["#
            + Array(repeating: "1", count: 32000).joined(separator: ",") + "]}}}"
        let attacker = try await connect("attacker")
        let bystander = try await connect("bystander")

        async let attack = attacker.sendText(frame, expectingReplyTo: "big", timeout: .seconds(20))
        // Let the decoding start, then ask: requests are handled one at a time, so decoding on
        // the coordinator would make the bystander wait for it.
        try await Task.sleep(for: .milliseconds(50))
        let asked = ContinuousClock.now
        _ = try await bystander.send(HealthCheckRequest())
        let waited = ContinuousClock.now - asked
        let answer = try await attack

        XCTAssertEqual(answer.header.kind, .response)
        XCTAssertLessThan(waited, quickAnswer)
    }

    func test_frameNestedToTheLimit_isStillRead() async throws {
        // 32 levels in all (the envelope's object and `payload` count): a legitimate deep frame.
        let inner = 30
        let frame = #"{"kind":"request","id":"ok","type":"healthCheck","payload":{"p":"#
            + String(repeating: "[", count: inner) + String(repeating: "]", count: inner) + "}}"
        let client = try await connect("alice")
        let reply = try await client.sendText(frame, expectingReplyTo: "ok")
        XCTAssertEqual(reply.header.kind, .response)
    }

    func test_textFrameWithInvalidUTF8_closesTheConnectionWith1007_andServerKeepsServing() async throws {
        let client = try await connect("alice")
        // A JSON request with one byte that can never occur in UTF-8 (0xFF) inside a string.
        var bytes = Array(#"{"kind":"request","id":"u","type":"healthCheck","payload":{"p":"x"#.utf8)
        bytes += [0xFF] + Array(#""}}"#.utf8)
        try await client.sendRawText(bytes)
        try await client.waitUntilClosed()
        let code = await client.serverCloseCode
        XCTAssertEqual(code, .dataInconsistentWithMessage)
        let answered = await client.receivedFrames(withId: "u")
        XCTAssertEqual(answered, 0, "the frame was processed")
        try await assertServerStillServes()
    }
}
