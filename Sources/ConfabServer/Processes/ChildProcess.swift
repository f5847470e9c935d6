import CChildProcess
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process of confab-server (janus, gst-launch-1.0, janus-pp-rec, gst-discoverer-1.0)
/// that lives and dies with the server: started by `confab_spawn` with a clean signal mask,
/// default dispositions, its own process group and a parent-death signal, stopped as a group,
/// and, when started in a `ChildGroup`, stopped with the rest of that group on the way out.
final class ChildProcess: Sendable {
    /// Also the process group id: the child leads its own group.
    let pid: Int32
    let tool: String
    private let exit: ExitWatch

    /// The tool's full path from PATH, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        return nil
    }

    /// Starts `tool` (a name on PATH or a full path) with its output going to `logPath` (a file,
    /// not a pipe: a chatty tool would otherwise block on a full pipe nobody reads).
    /// `deathSignal` reaches the child if the server dies without stopping it (even SIGKILL).
    static func start(
        _ tool: String, _ arguments: [String], logPath: String, directory: String? = nil, deathSignal: Int32 = SIGKILL,
        in group: ChildGroup? = nil, onExit: (@Sendable (_ status: Int32) -> Void)? = nil
    ) throws -> ChildProcess {
        guard let executable = find(tool) else { throw ChildProcessError.notInstalled(tool) }
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard log >= 0 else { throw ChildProcessError.cannotStart(tool, reason: "cannot open \(logPath): \(String(cString: strerror(errno)))") }
        defer { close(log) }
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let pid = try SpawningThread.shared.spawn(
            executable: executable, arguments: [executable] + arguments, environment: environment, outputFD: log,
            directory: directory, deathSignal: deathSignal)
        let child = ChildProcess(pid: pid, tool: tool) { status in
            group?.remove(pid)
            onExit?(status)
        }
        group?.add(child)
        return child
    }

    private init(pid: Int32, tool: String, onExit: @escaping @Sendable (Int32) -> Void) {
        self.pid = pid
        self.tool = tool
        exit = ExitWatch(pid: pid, onExit: onExit)
    }

    var hasExited: Bool { exit.status != nil }
    /// The exit status (128 + signal number when a signal ended it); nil while running.
    var exitStatus: Int32? { exit.status }

    /// Waits for the child to exit; returns its status.
    @discardableResult
    func waitForExit() async -> Int32 { await exit.wait() }

    /// SIGTERM to the child's whole process group, SIGKILL after `grace`; returns once it exited.
    func stop(grace: Duration = .seconds(2)) async {
        guard !hasExited else { return }
        kill(-pid, SIGTERM)
        let exit = exit, pid = pid
        // Detached so that a cancelled caller (a server shutting down) still gets it killed.
        let killer = Task.detached {
            try? await Task.sleep(for: grace)
            if exit.status == nil { kill(-pid, SIGKILL) }
        }
        _ = await exit.wait()
        killer.cancel()
    }

    /// Runs `tool` to the end; returns its output, throws when it fails.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], logPath: String, in group: ChildGroup? = nil) async throws -> String {
        let child = try start(tool, arguments, logPath: logPath, in: group)
        let status = await child.waitForExit()
        let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw ChildProcessError.failed(tool, status: status, output: String(output.suffix(400)))
        }
        return output
    }
}

/// The children one server started and has not seen exit, so that it can stop them all on the
/// way out (several servers may share one process: tests run them in-process).
final class ChildGroup: Sendable {
    private let running = Mutex<[Int32: ChildProcess]>([:])

    init() {}

    /// The watch marks a child's exit before it calls `remove`, so a child that exited at once
    /// is either never added or removed right after.
    fileprivate func add(_ child: ChildProcess) {
        running.withLock { if !child.hasExited { $0[child.pid] = child } }
    }

    fileprivate func remove(_ pid: Int32) {
        _ = running.withLock { $0.removeValue(forKey: pid) }
    }

    /// How many of the group's children are running now (tests and diagnostics).
    var count: Int { running.withLock { $0.count } }

    /// Stops every child still running: SIGTERM to each one's process group, SIGKILL after `grace`.
    func stopAll(grace: Duration = .seconds(2)) async {
        let children = running.withLock { Array($0.values) }
        await withTaskGroup(of: Void.self) { group in
            for child in children { group.addTask { await child.stop(grace: grace) } }
        }
    }
}

enum ChildProcessError: Error, CustomStringConvertible {
    case notInstalled(String)
    case cannotStart(String, reason: String)
    case failed(String, status: Int32, output: String)

    var description: String {
        switch self {
        case .notInstalled(let tool):
            "\(tool) is not installed (Debian: janus-pp-rec is in janus-tools, gst-* in gstreamer1.0-tools and gstreamer1.0-plugins-base-apps)"
        case .cannotStart(let tool, let reason): "\(tool) could not be started: \(reason)"
        case .failed(let tool, let status, let output): "\(tool) exited with status \(status): \(output)"
        }
    }
}

/// Learns a child's exit with a blocking `waitpid` on a thread of its own (one per running
/// child, and the server runs a handful), and tells waiters.
private final class ExitWatch: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = Mutex(State())

    init(pid: Int32, onExit: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread { [self] in
            var raw: Int32 = 0
            var result: Int32
            repeat { result = waitpid(pid, &raw, 0) } while result < 0 && errno == EINTR
            // WIFEXITED/WEXITSTATUS are macros Swift cannot import: the low 7 bits are the
            // terminating signal (0 when it exited normally), the next 8 the exit code.
            let signal = raw & 0x7F
            let status = result < 0 ? -1 : (signal == 0 ? (raw >> 8) & 0xFF : 128 + signal)
            let waiters = state.withLock { state -> [CheckedContinuation<Int32, Never>] in
                state.status = status
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            onExit(status)
            for waiter in waiters { waiter.resume(returning: status) }
        }
        thread.name = "confab-child-\(pid)"
        thread.start()
    }

    var status: Int32? { state.withLock { $0.status } }

    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status: Int32? = state.withLock { state in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }
}

/// Starts children from one thread that lives as long as the server. The parent-death signal
/// fires when the *thread* that forked the child exits, and the threads running Swift tasks
/// come and go.
private final class SpawningThread: @unchecked Sendable {
    static let shared = SpawningThread()
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
        thread.name = "confab-spawner"
        thread.start()
    }

    func spawn(
        executable: String, arguments: [String], environment: [String], outputFD: Int32, directory: String?, deathSignal: Int32
    ) throws -> Int32 {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<Int32, ChildProcessError> = .failure(.cannotStart(executable, reason: "not run"))
        condition.lock()
        jobs.append {
            let pid = withCStrings(arguments) { argv in
                withCStrings(environment) { envp in
                    if let directory {
                        directory.withCString { confab_spawn(executable, argv, envp, outputFD, $0, deathSignal) }
                    } else {
                        confab_spawn(executable, argv, envp, outputFD, nil, deathSignal)
                    }
                }
            }
            outcome = pid > 0 ? .success(pid) : .failure(.cannotStart(executable, reason: String(cString: strerror(errno))))
            done.signal()
        }
        condition.signal()
        condition.unlock()
        // Blocks the caller for the fork only (well under a millisecond); the spawner thread
        // is never busy for longer.
        done.wait()
        return try outcome.get()
    }
}

/// A NULL-terminated `char *[]` of `strings`, valid inside `body`.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
