import Foundation

/// The built `confab-server` on a free loopback port with dev auth and a temporary database:
/// the real server as a separate process, so a test can kill, freeze and restart it. The one
/// launcher for every suite that needs a server process.
public final class ServerProcess {
    public let directory: URL
    /// `ws://127.0.0.1:PORT` (`wss://` when started with `--tls-cert`), what `confab-peer --server` takes.
    public private(set) var baseURL = ""
    /// `ws://127.0.0.1:PORT/ws`, the coordinator's WebSocket endpoint.
    public var url: String { baseURL + "/ws" }
    public private(set) var port = 0
    private var process: Process?
    private let extraArguments: [String]

    /// Starts a server; `arguments` add e.g. `--ring-timeout 1`. Signalling only (no managed
    /// Janus) unless `media` is true.
    public static func start(_ arguments: [String] = [], directory: URL? = nil, media: Bool = false) async throws -> ServerProcess {
        let folder = try directory ?? Self.makeTemporaryDirectory()
        let server = ServerProcess(directory: folder, arguments: (media ? [] : signallingOnlyArguments) + arguments)
        try await server.launch(port: 0)
        return server
    }

    private init(directory: URL, arguments: [String]) {
        self.directory = directory
        self.extraArguments = arguments
    }

    private func launch(port: Int) async throws {
        let process = Process()
        process.executableURL = try builtExecutable("confab-server")
        process.arguments = ["--host", "127.0.0.1", "--port", String(port), "--dev-auth",
                             "--db", directory.appendingPathComponent("server.sqlite").path] + extraArguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        let output = ProcessOutput(stdout)
        try process.run()
        self.process = process
        let prefix = "listening on "
        let line = try await output.line(containing: prefix, timeout: .seconds(30))
        guard let start = line.range(of: prefix), let portText = line.split(separator: ":").last, let listening = Int(portText) else {
            throw TestFailure("confab-server printed '\(line)' instead of its listening line")
        }
        self.port = listening
        baseURL = String(line[start.upperBound...])
    }

    /// Kills the server at once, as a crash would.
    public func kill() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Starts it again on the same port and database (calls survive, sessions do not).
    public func restart() async throws {
        kill()
        try await launch(port: port)
    }

    /// Freezes the process (SIGSTOP): its sockets stay open but nothing is sent.
    /// Stops the server (SIGSTOP) and returns once it is stopped: the signal is delivered
    /// asynchronously, and a request sent at once was answered by a server not yet stopped (CI).
    public func freeze() {
        guard let pid = process?.processIdentifier else { return }
        _ = Foundation.kill(pid, SIGSTOP)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            // /proc/PID/stat: "PID (name) STATE …"; T is stopped by a signal.
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
               let state = stat.split(separator: ")").last?.split(separator: " ").first, state == "T" {
                return
            }
            usleep(1000)
        }
    }
    public func thaw() { process.map { _ = Foundation.kill($0.processIdentifier, SIGCONT) } }

    /// Stops it and removes its database.
    public func stop() {
        thaw()
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    public static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("confab-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Suites about signalling run without managed Janus (one per test costs start-up and ~3 s of
/// shutdown).
public let signallingOnlyArguments = ["--no-media"]
