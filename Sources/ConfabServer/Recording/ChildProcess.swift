import Foundation

/// Runs the media tools confab-server relies on (janus-pp-rec, gst-launch-1.0,
/// gst-discoverer-1.0) as child processes.
enum ChildProcess {
    /// The tool's full path from PATH, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        return nil
    }

    /// Starts `tool` with its output going to `logPath` (a file, not a pipe: a chatty tool would
    /// otherwise block on a full pipe nobody reads).
    static func start(
        _ tool: String, _ arguments: [String], logPath: String, onExit: (@Sendable (Process) -> Void)? = nil
    ) throws -> Process {
        guard let executable = find(tool) else { throw ChildProcessError.notInstalled(tool) }
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        // Set before run: a handler set after the process ended is never called.
        process.terminationHandler = onExit
        try process.run()
        try? log.close()
        return process
    }

    /// Runs `tool` to the end; returns its output, throws when it fails.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], logPath: String) async throws -> String {
        let process = try await withCheckedThrowingContinuation { (done: CheckedContinuation<Process, any Error>) in
            do {
                _ = try start(tool, arguments, logPath: logPath) { done.resume(returning: $0) }
            } catch {
                done.resume(throwing: error)
            }
        }
        let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw ChildProcessError.failed(tool, status: process.terminationStatus, output: String(output.suffix(400)))
        }
        return output
    }
}

enum ChildProcessError: Error, CustomStringConvertible {
    case notInstalled(String)
    case failed(String, status: Int32, output: String)

    var description: String {
        switch self {
        case .notInstalled(let tool):
            "\(tool) is not installed (Debian: janus-pp-rec is in janus-tools, gst-* in gstreamer1.0-tools and gstreamer1.0-plugins-base-apps)"
        case .failed(let tool, let status, let output): "\(tool) exited with status \(status): \(output)"
        }
    }
}
