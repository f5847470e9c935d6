import Foundation

/// The built `confab-server` on a free loopback port, dev auth, a temporary database.
final class CoordinatorProcess {
    private(set) var url = ""
    private var process = Process()
    private let directory: URL
    private let arguments: [String]

    /// `arguments` add e.g. `--ring-timeout 1`.
    init(_ arguments: [String] = [], directory: URL) async throws {
        self.directory = directory
        self.arguments = arguments
        try await launch(port: 0)
    }

    private func launch(port: Int) async throws {
        process = Process()
        process.executableURL = try builtExecutable("confab-server")
        process.arguments = ["--host", "127.0.0.1", "--port", String(port), "--dev-auth",
                             "--db", directory.appendingPathComponent("server.sqlite").path] + signallingOnlyArguments + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        let output = ProcessOutput(stdout)
        try process.run()
        let line = try await output.line(containing: "listening on ", timeout: .seconds(30))
        url = String(line.dropFirst("listening on ".count))
    }

    /// Stops it and starts it again on the same port and database (calls survive, sessions do not).
    func restart() async throws {
        guard let port = url.split(separator: ":").last.flatMap({ Int($0) }) else { throw EndToEndFailure("no port in \(url)") }
        stop()
        try await launch(port: port)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

/// These tests are about signalling: no managed Janus (one per test costs start-up and ~3 s of
/// shutdown).
let signallingOnlyArguments = ["--no-media"]
