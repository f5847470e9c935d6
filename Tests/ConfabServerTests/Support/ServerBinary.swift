import ConfabTestSupport
import Foundation
import XCTest

/// The built `confab-server` executable run as its own process, as scripts and operators run
/// it. Tests that may crash or kill the server use this, not the in-process `TestServer`.
final class ServerBinary: @unchecked Sendable {
    let process: Process
    /// The `listening on …` line (nil when started with `expectListening: false`).
    let listeningLine: String?
    /// What the server wrote to stderr, when asked to capture it.
    let stderrPath: URL?

    /// `confab-server` beside the test bundle (both are products of the same build).
    static func executable() throws -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("confab-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw XCTSkip("confab-server executable not built beside \(testBinary.path); run `swift build --product confab-server` first")
    }

    /// Starts the server and waits for its `listening on` line.
    static func launch(_ arguments: [String], stderr: URL? = nil, timeout: Duration = .seconds(20)) async throws -> ServerBinary {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        if let stderr {
            FileManager.default.createFile(atPath: stderr.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: stderr)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        do {
            let line = try await firstLine(of: output.fileHandleForReading, timeout: timeout)
            return ServerBinary(process: process, listeningLine: line, stderrPath: stderr)
        } catch {
            // Why it never listened is in its log, which the test's folder takes with it; read
            // once it has exited (its stdout closing comes just before), so its last words are in.
            for _ in 0..<50 where process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
            let status = process.isRunning ? "still running: stopped now" : "exit status \(process.terminationStatus), reason \(process.terminationReason.rawValue)"
            if process.isRunning { process.terminate() }
            let log = stderr.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? "(not captured)"
            throw TestFailure("\(error) (\(status)); its stderr, \(logExcerpt(log))")
        }
    }

    /// Runs the server until it exits on its own (a start-up failure); returns status and output.
    /// `launcher` runs before it (e.g. `unshare …`), with the server's path and arguments after it.
    static func runToExit(
        _ arguments: [String], launcher: [String] = [], timeout: Duration = .seconds(20)
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        if launcher.isEmpty {
            process.executableURL = try executable()
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = launcher + [try executable().path] + arguments
        }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            // Only time can tell when a process that should fail at start has exited.
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw TestClient.Failure.timedOut("confab-server to exit")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, out, err)
    }

    private init(process: Process, listeningLine: String?, stderrPath: URL?) {
        self.process = process
        self.listeningLine = listeningLine
        self.stderrPath = stderrPath
    }

    /// `ws://HOST:PORT` from the listening line.
    var url: String { String((listeningLine ?? "").dropFirst("listening on ".count)) }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Stops the server (SIGTERM) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
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
