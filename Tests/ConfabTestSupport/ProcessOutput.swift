import Foundation

/// Everything a child process writes to one pipe, collected as it arrives so a test can wait
/// for a line without blocking the pipe.
public final class ProcessOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var ended = false

    public init(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil
                self?.lock.withLock { self?.ended = true }
                return
            }
            self?.lock.withLock { self?.data.append(chunk) }
        }
    }

    /// What has arrived so far. The handler reads on its own queue, so a process that has
    /// just exited may have written more than this: use `all(within:)` for its last words.
    public var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Everything the process wrote, once the pipe has reached its end (the writer exited), or
    /// what has arrived after `within` if it has not (a child may still hold the pipe open).
    public func all(within limit: Duration = .seconds(2)) async -> String {
        let deadline = ContinuousClock.now + limit
        while !lock.withLock({ ended }) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return text
    }

    public var lines: [String] { text.split(separator: "\n").map(String.init) }

    /// The first line containing `fragment`, waiting up to `timeout` (polling: a pipe gives no event to await).
    public func line(containing fragment: String, timeout: Duration) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let line = lines.first(where: { $0.contains(fragment) }) { return line }
            guard ContinuousClock.now < deadline else {
                throw TestFailure("no line containing '\(fragment)' within \(timeout); output so far:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// A test's own failure (a process that misbehaved), in words.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs `executable` to its end: its exit status and everything it printed (stdout and stderr
/// together, for failure messages). `environment` nil: ours.
public func runToEnd(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

/// A binary built beside the test bundle (`swift build` puts every product in one folder).
public func builtExecutable(_ name: String) throws -> URL {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    throw TestFailure("\(name) is not built beside the tests; run `swift build` first")
}

/// Waits for a process to exit, up to `timeout`; kills it if it does not.
public func waitForExit(_ process: Process, timeout: Duration) async throws {
    let deadline = ContinuousClock.now + timeout
    while process.isRunning {
        guard ContinuousClock.now < deadline else {
            process.terminate()
            throw TestFailure("\(process.executableURL?.lastPathComponent ?? "process") still running after \(timeout)")
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// What a failed test should quote of a child's log: its last `tail` characters, and, when the
/// child crashed, Swift's report of the crashed thread first. The backtracer writes that thread
/// first and then every other thread, the registers and the loaded images, so the tail alone
/// holds everything but the frames that say where it crashed.
public func logExcerpt(_ log: String, tail: Int = 3000) -> String {
    guard let crash = log.range(of: "*** Program crashed") else {
        return "last \(tail) characters:\n\(log.suffix(tail))"
    }
    let report = log[crash.lowerBound...]
    return "the crash report's first 8000 characters:\n\(report.prefix(8000))\n…\nlast \(tail) characters:\n\(log.suffix(tail))"
}
