import Foundation
import XCTest

/// The built `confab-server` binary running on a free loopback port with a temporary
/// database — the real server, as a separate process, so tests can kill and restart it.
final class ServerProcess {
    let directory: URL
    private(set) var url = ""
    private(set) var port = 0
    private var process: Process?
    private let extraArguments: [String]

    /// Starts a server; `arguments` add e.g. `--ring-timeout 1` or `--health-interval 0.2`.
    static func start(_ arguments: [String] = [], directory: URL? = nil) async throws -> ServerProcess {
        let folder = try directory ?? Self.makeTemporaryDirectory()
        let server = ServerProcess(directory: folder, arguments: arguments)
        try await server.launch(port: 0)
        return server
    }

    private init(directory: URL, arguments: [String]) {
        self.directory = directory
        self.extraArguments = arguments
    }

    /// The binary beside the test bundle (both come out of the same build).
    static func executable(_ name: String) throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw XCTSkip("\(name) is not built beside the tests; run `swift build` first")
    }

    private func launch(port: Int) async throws {
        let process = Process()
        process.executableURL = try Self.executable("confab-server")
        process.arguments = ["--host", "127.0.0.1", "--port", String(port), "--dev-auth",
                             "--db", directory.appendingPathComponent("server.sqlite").path] + signallingOnlyArguments + extraArguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let line = try await LineReader.firstLine(of: output.fileHandleForReading, timeout: .seconds(30))
        let prefix = "listening on "
        guard line.hasPrefix(prefix), let portText = line.split(separator: ":").last, let listening = Int(portText) else {
            throw ProcessFailure("confab-server printed '\(line)' instead of its listening line")
        }
        self.port = listening
        self.url = String(line.dropFirst(prefix.count)) + "/ws"
    }

    /// Kills the server at once, as a crash would.
    func kill() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Starts it again on the same port and database.
    func restart() async throws {
        kill()
        try await launch(port: port)
    }

    /// Freezes the process (SIGSTOP): its sockets stay open but nothing is sent.
    func freeze() { process.map { _ = Foundation.kill($0.processIdentifier, SIGSTOP) } }
    func thaw() { process.map { _ = Foundation.kill($0.processIdentifier, SIGCONT) } }

    func stop() {
        thaw()
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("confab-client-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// These tests are about signalling: no managed Janus (one per test costs start-up and ~3 s of
/// shutdown).
let signallingOnlyArguments = ["--no-media"]

struct ProcessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Hands over the first line a pipe produces, or fails at the deadline or when the pipe closes.
final class LineReader: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var continuation: CheckedContinuation<String, any Error>?
    private var result: Result<String, any Error>?

    static func firstLine(of handle: FileHandle, timeout: Duration) async throws -> String {
        let reader = LineReader()
        handle.readabilityHandler = { handle in reader.append(handle.availableData) }
        defer { handle.readabilityHandler = nil }
        return try await withCheckedThrowingContinuation { continuation in
            reader.wait(continuation)
            Task {
                try? await Task.sleep(for: timeout)
                reader.finish(.failure(ProcessFailure("no line within \(timeout)")))
            }
        }
    }

    private func wait(_ continuation: CheckedContinuation<String, any Error>) {
        lock.withLock {
            self.continuation = continuation
            deliverIfReady()
        }
    }

    private func append(_ data: Data) {
        if data.isEmpty { return finish(.failure(ProcessFailure("the process closed its output before printing a line"))) }
        lock.withLock {
            buffer.append(data)
            if result == nil, let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                result = .success(String(decoding: buffer[..<newline], as: UTF8.self))
            }
            deliverIfReady()
        }
    }

    private func finish(_ outcome: Result<String, any Error>) {
        lock.withLock {
            if result == nil { result = outcome }
            deliverIfReady()
        }
    }

    private func deliverIfReady() {
        guard let result, let continuation else { return }
        self.continuation = nil
        continuation.resume(with: result)
    }
}
