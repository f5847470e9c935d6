@testable import ConfabServer
import Foundation
import XCTest

/// The server's children start clean whatever the server's own signal state (issue 16, item 3):
/// confab-server ignores SIGTERM and SIGINT to handle them through Dispatch, and a child that
/// inherited that ignored SIGTERM and outlived the server.
final class ChildProcessTests: XCTestCase {
    private var folder: URL!

    override func setUp() async throws {
        folder = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A field of the child's /proc/self/status, as the child itself saw it.
    private func statusField(_ name: String, in log: URL) throws -> String {
        let text = try String(contentsOf: log, encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("\(name):") }, text)
        return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
    }

    func test_childOfAServerThatIgnoresSIGTERM_startsWithNothingBlockedOrIgnored_inItsOwnGroup() async throws {
        // As confab-server does (StopSignals).
        let previous = signal(SIGTERM, SIG_IGN)
        defer { signal(SIGTERM, previous) }
        let log = folder.appendingPathComponent("status.log")
        let child = try ChildProcess.start("sh", ["-c", "cat /proc/self/status; echo PGID $(ps -o pgid= -p $$)"], logPath: log.path)
        let status = await child.waitForExit()

        XCTAssertEqual(status, 0)
        XCTAssertEqual(try statusField("SigBlk", in: log), "0000000000000000")
        XCTAssertEqual(try statusField("SigIgn", in: log), "0000000000000000")
        let text = try String(contentsOf: log, encoding: .utf8)
        XCTAssertTrue(text.contains("PGID \(child.pid)") || text.contains("PGID  \(child.pid)"), "not its own process group:\n\(text)")
    }

    func test_stop_endsAChildThatKeepsRunning_withinTheGrace_andItsGroupWithIt() async throws {
        let group = ChildGroup()
        let child = try ChildProcess.start("sh", ["-c", "sleep 100 & sleep 100"], logPath: folder.appendingPathComponent("sleep.log").path, in: group)
        XCTAssertEqual(group.count, 1)
        let started = ContinuousClock.now
        await group.stopAll(grace: .seconds(2))

        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
        XCTAssertEqual(child.exitStatus, 128 + SIGTERM)
        XCTAssertEqual(group.count, 0)
        // The background `sleep` was in the child's group: SIGTERM reached it too. Whoever adopted
        // it reaps it later (or never, under some init): a zombie has ended, so only living
        // members of the group count.
        let deadline = ContinuousClock.now + .seconds(2)
        while !Self.livingMembers(ofGroup: child.pid).isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertEqual(Self.livingMembers(ofGroup: child.pid), [], "a process of the child's group is still running")
    }

    func test_toolThatIsNotInstalled_isATypedErrorNamingIt() {
        XCTAssertThrowsError(try ChildProcess.start("confab-no-such-tool", [], logPath: folder.appendingPathComponent("x.log").path)) { error in
            XCTAssertTrue("\(error)".contains("confab-no-such-tool"), "\(error)")
        }
    }

    /// Processes of group `group` that have not ended (zombies excluded), from /proc.
    static func livingMembers(ofGroup group: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "(comm)": state, ppid, pgrp …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", Int32(fields[2]) == group else { return nil }
            return pid
        }
    }
}
