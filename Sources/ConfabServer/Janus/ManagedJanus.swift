import Foundation
import JanusProtocol
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `janus` child process confab-server runs in managed mode: started with a generated
/// configuration in a private folder, watched, restarted when it dies, stopped with the server.
///
/// A restarted Janus has no rooms and no sessions; `JanusRooms` reconnects and recreates a
/// call's room at the next join. Clients already in a call see their Janus WebSocket close.
actor ManagedJanus {
    struct Settings: Sendable {
        var executable: String
        var libraryFolder: String
        var websocketHost: String
        var mediaAddress: String?
        var rtpPortRange: ClosedRange<Int>
        var sessionTimeoutSeconds: Int
        /// How long a start may take before it counts as failed (Janus needs ~0.1 s).
        var startTimeout: Duration = .seconds(10)
    }

    let settings: Settings
    /// Given to Janus's videoroom; every `create` must carry it.
    nonisolated let adminKey: String
    private let logger: Logger
    private let folder: URL
    private var port: Int
    private var child: Child?
    private var stopped = false
    private var restarts: Task<Void, Never>?
    /// Quick successive deaths back off up to 5 s between starts.
    private var restartDelay: Duration = .milliseconds(200)

    /// One started process and whether it answered yet.
    private struct Child {
        var process: ChildProcess
        var isReady: Bool
    }

    /// The `janus` on PATH, if any.
    static func findExecutable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/janus" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    init(settings: Settings, logger: Logger) throws {
        self.settings = settings
        self.logger = logger
        adminKey = randomHex(bytes: 16)
        Self.removeLeftovers()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(Self.folderPrefix)\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        port = try freeTCPPort(host: settings.websocketHost)
    }

    /// The WebSocket URL Janus listens on now.
    var url: String { "ws://\(urlHost):\(port)" }

    private var urlHost: String { settings.websocketHost.contains(":") ? "[\(settings.websocketHost)]" : settings.websocketHost }

    /// Janus is running and answered on its WebSocket (false while it restarts).
    var isUp: Bool {
        guard let child else { return false }
        return child.isReady && !child.process.hasExited
    }

    /// The running child's pid (tests kill it to check restarts).
    var processIdentifier: Int32? { child.map { $0.process.pid } }

    /// Private folders are `confab-janus-<server pid>-<uuid>` in the temporary directory.
    private static let folderPrefix = "confab-janus-"

    /// Removes the folders (configuration, log) of managed Janus processes whose server is
    /// gone: a server killed with SIGKILL or crashed could not remove its own. A folder whose
    /// server is still running (another confab-server on this machine) is left alone.
    static func removeLeftovers() {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        where name.hasPrefix(folderPrefix) {
            guard let owner = Int32(name.dropFirst(folderPrefix.count).prefix { $0 != "-" }), owner > 0 else { continue }
            // kill(pid, 0) fails with ESRCH only when no such process exists.
            if kill(owner, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }

    /// Starts Janus and returns once it answers on its WebSocket. When that fails it keeps
    /// trying in the background (joins fail with a clear error meanwhile) and rethrows.
    func start() async throws {
        do {
            try await launch()
        } catch {
            if let newPort = try? freeTCPPort(host: settings.websocketHost) { port = newPort }
            scheduleRestart()
            throw error
        }
    }

    /// The URL once Janus is up, waiting up to `timeout` while it (re)starts.
    func readyURL(within timeout: Duration) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            if stopped { throw JanusError.unreachable(url: url, reason: "the managed Janus was stopped") }
            if let child, child.isReady, !child.process.hasExited { return url }
            guard ContinuousClock.now < deadline else {
                throw JanusError.unreachable(url: url, reason: "the managed Janus is not running (restarting); see \(logPath)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops Janus (SIGTERM, SIGKILL after 3 s) and removes its folder. Works from a cancelled task.
    func stop() async {
        stopped = true
        restarts?.cancel()
        // SIGTERM, SIGKILL after 3 s.
        if let child { await child.process.stop(grace: .seconds(3)) }
        child = nil
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: Starting

    private var logPath: String { folder.appendingPathComponent("janus.log").path }

    private func launch() async throws {
        let configuration = ManagedJanusConfiguration(
            libraryFolder: settings.libraryFolder, websocketHost: settings.websocketHost, websocketPort: port,
            adminKey: adminKey, mediaAddress: settings.mediaAddress, rtpPortRange: settings.rtpPortRange,
            sessionTimeoutSeconds: settings.sessionTimeoutSeconds)
        try configuration.write(to: folder)

        let janusArguments = ["-C", folder.appendingPathComponent("janus.jcfg").path, "-F", folder.path]
        // SIGKILL when the server dies (even by SIGKILL): nobody is left to follow a SIGTERM up,
        // and Janus's own shutdown took more than 3 s under load (measured); the kernel closes
        // its sockets, and the next server removes its folder.
        let process = try ChildProcess.start(
            settings.executable, janusArguments, logPath: logPath, directory: folder.path, deathSignal: SIGKILL
        ) { [weak self] status in
            Task { await self?.childExited(status: status) }
        }
        let pid = process.pid
        child = Child(process: process, isReady: false)
        logger.info("starting janus", metadata: ["pid": "\(pid)", "url": "\(url)", "config": "\(folder.path)"])

        let deadline = ContinuousClock.now + settings.startTimeout
        while !process.hasExited, ContinuousClock.now < deadline, !stopped {
            if await answersInfo() {
                child?.isReady = true
                logger.notice("janus is ready", metadata: ["url": "\(url)", "pid": "\(pid)"])
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let reason = process.hasExited ? "janus exited during start-up" : "janus did not answer within \(settings.startTimeout)"
        await process.stop(grace: .seconds(3))
        if child?.process === process { child = nil }
        throw JanusError.unreachable(url: url, reason: "\(reason); last lines of \(logPath):\n\(logTail())")
    }

    /// True when Janus answers `info` on its WebSocket (the transport is up, plugins loaded).
    private func answersInfo() async -> Bool {
        var quiet = logger
        quiet.logLevel = .critical
        guard let client = try? await JanusSignallingClient.connect(to: url, logger: quiet, timeout: .seconds(1)) else { return false }
        defer { Task { await client.close() } }
        guard case .serverInfo = try? await client.request(.info, timeout: .seconds(1)) else { return false }
        return true
    }

    // MARK: Restarting

    private func childExited(status: Int32) {
        // A child that never became ready belongs to `launch`, which reports and retries.
        guard !stopped, let child, child.process.hasExited, child.isReady else { return }
        self.child = nil
        logger.warning(
            "janus exited; restarting it",
            metadata: ["status": "\(status)", "log": "\(logPath)", "tail": "\(logTail(lines: 5))"])
        restartDelay = .milliseconds(200)
        scheduleRestart()
    }

    private func scheduleRestart() {
        let delay = restartDelay
        restartDelay = min(restartDelay * 2, .seconds(5))
        restarts = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.restart()
        }
    }

    private func restart() async {
        guard !stopped, child == nil else { return }
        do {
            try await launch()
        } catch {
            // Most often the port was taken meanwhile: try a new one. Clients get the new URL
            // with their next join.
            logger.error("janus did not restart", metadata: ["error": "\(error)"])
            if let newPort = try? freeTCPPort(host: settings.websocketHost) { port = newPort }
            if !stopped, child == nil { scheduleRestart() }
        }
    }

    private func logTail(lines: Int = 20) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// A TCP port nobody listens on right now (bound to port 0 and released). Janus binds it a
/// moment later; if something else wins the race, the restart logic picks another.
func freeTCPPort(host: String) throws -> Int {
    #if canImport(Glibc)
    let socketType = Int32(SOCK_STREAM.rawValue)
    #else
    let socketType = SOCK_STREAM
    #endif
    let descriptor = socket(AF_INET, socketType, 0)
    guard descriptor >= 0 else { throw JanusError.unreachable(url: host, reason: "cannot open a socket to find a free port") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    // Only IPv4 literals are probed; anything else (a name, IPv6) probes on all interfaces.
    if inet_pton(AF_INET, host, &address.sin_addr) != 1 { address.sin_addr.s_addr = 0 }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw JanusError.unreachable(url: host, reason: "cannot bind a socket on \(host) to find a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// `bytes` random bytes as lowercase hex: admin keys, room secrets, join tokens.
func randomHex(bytes: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
}
