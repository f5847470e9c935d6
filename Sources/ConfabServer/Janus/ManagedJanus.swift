import Foundation
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

    /// One started process and how to learn that it exited.
    private struct Child {
        var process: Process
        var exit: ProcessExit
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
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("confab-janus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        port = try freeTCPPort(host: settings.websocketHost)
    }

    /// The WebSocket URL Janus listens on now.
    var url: String { "ws://\(urlHost):\(port)" }

    private var urlHost: String { settings.websocketHost.contains(":") ? "[\(settings.websocketHost)]" : settings.websocketHost }

    /// The running child's pid (tests kill it to check restarts).
    var processIdentifier: Int32? { child.map { $0.process.processIdentifier } }

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
            if let child, child.isReady, !child.exit.hasExited { return url }
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
        if let child { await Self.terminate(child) }
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
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        defer { try? log.close() }

        let process = Process()
        let janusArguments = ["-C", folder.appendingPathComponent("janus.jcfg").path, "-F", folder.path]
        if FileManager.default.isExecutableFile(atPath: Self.setpriv) {
            // setpriv sets the parent-death signal and execs janus (same pid): a confab-server
            // killed with SIGKILL, which cannot stop its child itself, leaves no janus behind.
            process.executableURL = URL(fileURLWithPath: Self.setpriv)
            process.arguments = ["--pdeathsig", "TERM", settings.executable] + janusArguments
        } else {
            process.executableURL = URL(fileURLWithPath: settings.executable)
            process.arguments = janusArguments
        }
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        let exit = ProcessExit()
        process.terminationHandler = { [weak self] process in
            exit.markExited(status: process.terminationStatus)
            Task { await self?.childExited(process) }
        }
        try await LauncherThread.shared.run(process)
        child = Child(process: process, exit: exit, isReady: false)
        logger.info("starting janus", metadata: ["pid": "\(process.processIdentifier)", "url": "\(url)", "config": "\(folder.path)"])

        let deadline = ContinuousClock.now + settings.startTimeout
        while !exit.hasExited, ContinuousClock.now < deadline, !stopped {
            if await answersInfo() {
                child?.isReady = true
                logger.notice("janus is ready", metadata: ["url": "\(url)", "pid": "\(process.processIdentifier)"])
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let reason = exit.hasExited ? "janus exited during start-up" : "janus did not answer within \(settings.startTimeout)"
        await Self.terminate(Child(process: process, exit: exit, isReady: false))
        if child?.process === process { child = nil }
        throw JanusError.unreachable(url: url, reason: "\(reason); last lines of \(logPath):\n\(logTail())")
    }

    /// True when Janus answers `info` on its WebSocket (the transport is up, plugins loaded).
    private func answersInfo() async -> Bool {
        var quiet = logger
        quiet.logLevel = .critical
        guard let client = try? await JanusSignallingClient.connect(to: url, logger: quiet, timeout: .seconds(1)) else { return false }
        defer { Task { await client.close() } }
        let answer = try? await client.request(["janus": "info"], timeout: .seconds(1))
        return answer?["janus"]?.string == "server_info"
    }

    /// util-linux's setpriv (Debian and most distributions have it).
    private static let setpriv = "/usr/bin/setpriv"

    // MARK: Restarting

    private func childExited(_ process: Process) {
        // A child that never became ready belongs to `launch`, which reports and retries.
        guard !stopped, let child, child.process === process, child.isReady else { return }
        self.child = nil
        logger.warning(
            "janus exited; restarting it",
            metadata: ["status": "\(process.terminationStatus)", "log": "\(logPath)", "tail": "\(logTail(lines: 5))"])
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

    private static func terminate(_ child: Child) async {
        let pid = child.process.processIdentifier
        guard !child.exit.hasExited else { return }
        kill(pid, SIGTERM)
        let exit = child.exit
        // Detached so that a cancelled caller (a test tearing the server down) still waits.
        let killer = Task.detached {
            try? await Task.sleep(for: .seconds(3))
            if !exit.hasExited { kill(pid, SIGKILL) }
        }
        await exit.wait()
        killer.cancel()
    }

    private func logTail(lines: Int = 20) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// Starts processes from one thread that lives as long as the server. The parent-death signal
/// fires when the *thread* that spawned the child exits, and the threads running Swift tasks
/// come and go.
private final class LauncherThread: @unchecked Sendable {
    static let shared = LauncherThread()
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in
            // Children inherit the spawning thread's signal mask, and this thread inherits the
            // mask of the dispatch worker that created it, which blocks nearly everything: a
            // janus started with SIGTERM blocked ignores our stop.
            var nothing = sigset_t()
            sigemptyset(&nothing)
            pthread_sigmask(SIG_SETMASK, &nothing, nil)
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
        thread.name = "confab-janus-launcher"
        thread.start()
    }

    func run(_ process: Process) async throws {
        let box = UncheckedProcess(process: process)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            condition.lock()
            jobs.append {
                do {
                    try box.process.run()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            condition.signal()
            condition.unlock()
        }
    }

    private struct UncheckedProcess: @unchecked Sendable { var process: Process }
}

/// Learns a process's exit from its termination handler; waiters need not be on any actor.
private final class ProcessExit: @unchecked Sendable {
    private let lock = NSLock()
    private var exited = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    var hasExited: Bool { lock.withLock { exited } }

    func markExited(status: Int32) {
        let waiting: [CheckedContinuation<Void, Never>] = lock.withLock {
            exited = true
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let done: Bool = lock.withLock {
                if exited { return true }
                waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
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
