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

/// `--no-media` when the server has it: these tests are about signalling, and a managed Janus
/// per test costs start-up and ~3 s of shutdown. Servers from before the Janus integration have
/// neither the flag nor a Janus.
let signallingOnlyArguments: [String] = {
    guard let binary = try? builtExecutable("confab-server") else { return [] }
    let process = Process()
    process.executableURL = binary
    process.arguments = ["serve", "--help"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return [] }
    let help = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return help.contains("--no-media") ? ["--no-media"] : []
}()
