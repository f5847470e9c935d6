import ConfabProtocol
import Foundation
import XCTest

/// The built `confab-server` executable, as scripts use it.
final class ServerProcessTests: XCTestCase {
    private var directory: URL!
    private var processes: [Process] = []

    override func setUp() async throws {
        directory = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        for process in processes where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// `confab-server` beside the test bundle (both are products of the same build).
    private func executable() throws -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("confab-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw XCTSkip("confab-server executable not built beside \(testBinary.path); run `swift build --product confab-server` first")
    }

    /// Starts the server and returns the URL from its `listening on` line.
    private func launch(_ arguments: [String]) async throws -> (Process, String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
        let line = try await Self.firstLine(of: output.fileHandleForReading, timeout: .seconds(20))
        return (process, line)
    }

    private static func firstLine(of handle: FileHandle, timeout: Duration) async throws -> String {
        let reader = FirstLineReader()
        handle.readabilityHandler = { handle in reader.append(handle.availableData) }
        defer { handle.readabilityHandler = nil }
        return try await withCheckedThrowingContinuation { continuation in
            reader.onLine(continuation)
            Task {
                try? await Task.sleep(for: timeout)
                reader.fail(TestClient.Failure.timedOut("the listening line"))
            }
        }
    }

    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func test_binaryWithPortZero_whenReady_printsListeningLineAndServesClients() async throws {
        let db = directory.appendingPathComponent("server.sqlite").path
        let (_, line) = try await launch(["--host", "127.0.0.1", "--port", "0", "--db", db, "--dev-auth"])
        let prefix = "listening on ws://127.0.0.1:"
        XCTAssertTrue(line.hasPrefix(prefix), line)
        let port = try XCTUnwrap(Int(line.dropFirst(prefix.count)))
        XCTAssertGreaterThan(port, 0)
        let client = try await TestClient.connect(to: "ws://127.0.0.1:\(port)", as: "alice")
        let joined = try await client.send(JoinCallRequest(cid: CallID(type: .default, id: "cli"), create: true))
        XCTAssertEqual(joined.call.createdBy, "alice")
        await client.close()
        XCTAssertTrue(FileManager.default.fileExists(atPath: db))
    }

    func test_tokenCommand_printsTokenThatTheServerAcceptsWhileForgedOnesAreRefused() async throws {
        let db = directory.appendingPathComponent("server.sqlite").path
        let token = try run(["token", "alice", "--db", db])
        XCTAssertEqual(token.split(separator: ".").count, 3, token)
        let secret = directory.appendingPathComponent("server.secret").path
        let attributes = try FileManager.default.attributesOfItem(atPath: secret)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        let (_, line) = try await launch(["--port", "0", "--db", db])
        let url = String(line.dropFirst("listening on ".count))
        let client = try await TestClient.connect(to: url)
        let hello = try await client.send(HelloRequest(token: token))
        XCTAssertEqual(hello.userId, "alice")

        let other = try await TestClient.connect(to: url)
        let tampered = token.dropLast(2) + (token.hasSuffix("AA") ? "BB" : "AA")
        let error = try await other.sendExpectingError(HelloRequest(token: String(tampered)))
        XCTAssertEqual(error.code, .invalidToken)
        let missing = try await other.sendExpectingError(HelloRequest(userId: "alice"))
        XCTAssertEqual(missing.code, .notAuthenticated)
        await client.close()
        await other.close()
    }
}

/// Collects a pipe's output until the first newline and hands that line over exactly once.
private final class FirstLineReader: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var continuation: CheckedContinuation<String, any Error>?
    private var result: Result<String, any Error>?

    func onLine(_ continuation: CheckedContinuation<String, any Error>) {
        lock.withLock {
            self.continuation = continuation
            deliverIfReady()
        }
    }

    func append(_ data: Data) {
        lock.withLock {
            guard result == nil else { return }
            if data.isEmpty {
                result = .failure(TestClient.Failure.closed("the listening line (server exited)"))
            } else {
                buffer.append(data)
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    result = .success(String(decoding: buffer[..<newline], as: UTF8.self))
                }
            }
            deliverIfReady()
        }
    }

    func fail(_ error: any Error) {
        lock.withLock {
            if result == nil { result = .failure(error) }
            deliverIfReady()
        }
    }

    private func deliverIfReady() {
        guard let result, let continuation else { return }
        self.continuation = nil
        continuation.resume(with: result)
    }
}
