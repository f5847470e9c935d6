import Foundation

/// The built `confab-server` on a free loopback port, dev auth, a temporary database.
final class CoordinatorProcess {
    let url: String
    private let process: Process
    private let directory: URL

    /// `arguments` add e.g. `--ring-timeout 1`.
    init(_ arguments: [String] = [], directory: URL) async throws {
        self.directory = directory
        process = Process()
        process.executableURL = try builtExecutable("confab-server")
        process.arguments = ["--host", "127.0.0.1", "--port", "0", "--dev-auth",
                             "--db", directory.appendingPathComponent("server.sqlite").path] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        let output = ProcessOutput(stdout)
        try process.run()
        let line = try await output.line(containing: "listening on ", timeout: .seconds(30))
        url = String(line.dropFirst("listening on ".count))
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
