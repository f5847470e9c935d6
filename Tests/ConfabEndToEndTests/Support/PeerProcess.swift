import ConfabTestSupport
import Foundation
import XCTest

/// A `confab-peer` process and, once it exits, its JSON report.
final class PeerProcess {
    let user: String
    private let process: Process
    private let stderr: ProcessOutput
    /// Where the peer writes its JSON report.
    let reportURL: URL

    convenience init(_ user: String, server: ServerProcess, directory: URL, _ command: [String], launcher: [String] = []) throws {
        try self.init(user, serverURL: server.baseURL, directory: directory, command, launcher: launcher)
    }

    /// `launcher` runs before the peer (it execs it), with the peer's path and arguments after it.
    init(_ user: String, serverURL: String, directory: URL, _ command: [String], launcher: [String] = []) throws {
        self.user = user
        reportURL = directory.appendingPathComponent("\(user)-\(UUID().uuidString.prefix(8)).json")
        process = Process()
        let peer = try builtExecutable("confab-peer")
        let arguments = ["--server", serverURL, "--user", user, "--report", reportURL.path] + command
        if launcher.isEmpty {
            process.executableURL = peer
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = launcher + [peer.path] + arguments
        }
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        stderr = ProcessOutput(pipe)
        try process.run()
    }

    /// Waits for a progress line such as "connected as bob" or "state inCall".
    func waitFor(_ fragment: String, timeout: Duration = .seconds(10)) async throws {
        _ = try await stderr.line(containing: fragment, timeout: timeout)
    }

    /// Waits for the peer to finish and reads its report; fails if it exited with an error.
    func report(timeout: Duration = .seconds(20), file: StaticString = #filePath, line: UInt = #line) async throws -> PeerReport {
        try await waitForExit(process, timeout: timeout)
        let output = await stderr.all()
        XCTAssertEqual(process.terminationStatus, 0, "\(user)'s peer failed:\n\(output)", file: file, line: line)
        do {
            return try JSONDecoder().decode(PeerReport.self, from: Data(contentsOf: reportURL))
        } catch {
            throw TestFailure("no readable report from \(user) (\(error)); its output:\n\(output)")
        }
    }

    /// Waits until `fragment` has appeared on `count` lines; returns the output so far.
    func waitForCount(of fragment: String, _ count: Int, timeout: Duration) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while stderr.lines.filter({ $0.contains(fragment) }).count < count {
            guard ContinuousClock.now < deadline else {
                throw TestFailure("'\(fragment)' not seen \(count) times within \(timeout):\n\(stderr.text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return stderr.text
    }

    /// Waits for the peer to exit, whatever its status; returns the status and what it said.
    func exit(timeout: Duration = .seconds(20)) async throws -> (status: Int32, output: String) {
        try await waitForExit(process, timeout: timeout)
        return (process.terminationStatus, await stderr.all())
    }

    /// Whether the peer ended by a signal (a crash) rather than by exiting; valid once it ended.
    var wasKilledBySignal: Bool { process.terminationReason == .uncaughtSignal }

    /// Asks the peer to stop, as a test harness or a service manager would.
    func terminate() {
        process.terminate()
    }

    func stop() {
        if process.isRunning { process.terminate() }
    }
}

/// The parts of confab-peer's report the tests read (dates stay strings: order is what matters).
struct PeerReport: Decodable {
    struct StateChange: Decodable { let state: String }
    struct Event: Decodable {
        let type: String
        let call: String?
        let user: String?
        let reason: String?
        let byThisDevice: Bool?
    }
    struct Participant: Decodable {
        let user: String
        let joinedAt: String
        let leftAt: String?
    }

    let user: String
    let outcome: String?
    let error: String?
    let states: [StateChange]
    let events: [Event]
    let participants: [Participant]
    /// Issue 18: what the peer heard and did beside the video.
    struct ChatEntry: Decodable {
        let id: Int64
        let user: String
        let text: String
    }
    struct ReactionEntry: Decodable {
        let user: String
        let emoji: String
    }
    struct HandEntry: Decodable {
        let type: String
        let user: String
        let by: String
        let order: Int?
    }
    let chat: [ChatEntry]?
    let chatHistory: [ChatEntry]?
    let chatSent: [ChatEntry]?
    let reactions: [ReactionEntry]?
    let hands: [HandEntry]?
    let knocks: [String: String]?
    let admission: String?
    let activityErrors: [String]?

    /// The calling states in the order the peer went through them.
    var stateNames: [String] { states.map(\.state) }
    func events(_ type: String) -> [Event] { events.filter { $0.type == type } }
}
