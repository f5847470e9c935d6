import ConfabTestSupport
import Foundation
import XCTest

/// Children that live and die with the server (issue 16, item 3): confab-server with its
/// managed Janus, recording and broadcasting a real call in a throwaway network namespace, is
/// ended with SIGTERM or SIGKILL; nothing it started may outlive it, and none of its temporary
/// files may be left (a killed server's are removed by the next one at start). Also: Stop
/// broadcast ends the pipeline within 2 s and removes its segments.
///
/// The host's controls are Support/server-children.py; the peers publish test media.
final class ServerChildren_EndToEndTests: XCTestCase {
    private static let call = "default:children-e2e"
    /// One call per way of ending the server serves every test that looks at it.
    private static var summaries: [String: [String: Any]] = [:]

    private func runCall(ending mode: String) async throws -> [String: Any] {
        if let summary = Self.summaries[mode] { return summary }
        let summary = try await runNewCall(ending: mode)
        Self.summaries[mode] = summary
        return summary
    }

    private func runNewCall(ending mode: String) async throws -> [String: Any] {
        if let reason = MediaCall.namespaceUnavailableReason() {
            throw XCTSkip("server children end-to-end tests need a network namespace: \(reason)")
        }
        for tool in ["janus", "gst-launch-1.0"] where Self.which(tool) == nil {
            throw XCTSkip("\(tool) is not installed")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-children-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = MediaCall.repository.appendingPathComponent("Tests/ConfabEndToEndTests/Support/server-children.py").path
        // 45 s: long enough for every step even when media takes ~10 s to flow on a busy machine.
        let peers = [("alice", 0.0, "FF0000"), ("bob", 0.7, "00FF00")].map { user, delay, color in
            MediaCall.Peer(user: user, joinsAfter: delay, arguments: [
                "join", Self.call, "--create", "--duration", "45", "--color", color, "--tone", "440"])
        }
        let failure: (any Error)?
        do {
            _ = try await MediaCall(peers: peers, controller: ["python3", script, Self.call, mode], outputDirectory: directory)
                .run(timeout: .seconds(120))
            failure = nil
        } catch {
            // The peers' own verdict is not what this test is about; the summary is.
            failure = error
        }
        let controllerLog = (try? String(contentsOf: directory.appendingPathComponent("controller.log"), encoding: .utf8)) ?? ""
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("children.json")),
              let summary = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw TestFailure("the controller wrote no summary; controller.log:\n\(controllerLog)\n\(failure.map { "\($0)" } ?? "")")
        }
        print("children summary (\(mode)): \(summary)")
        // The summary is all the tests need; the call's logs stay only when it went wrong.
        if failure == nil { try? FileManager.default.removeItem(at: directory) }
        return summary
    }

    private func assertNothingOutlived(_ summary: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(summary["serverExited"] as? Bool, true, file: file, line: line)
        let before = summary["childrenBeforeDeath"] as? [String] ?? []
        XCTAssertTrue(before.contains("janus") && before.contains { $0.hasPrefix("gst-launch") },
                      "the server was not running janus and a pipeline: \(before)", file: file, line: line)
        XCTAssertEqual((summary["survivors"] as? [Any])?.count, 0, "outlived the server: \(summary["survivors"] ?? "?")", file: file, line: line)
    }

    func test_stopBroadcast_endsThePipelineWithin2s_andRemovesItsSegments() async throws {
        let summary = try await runCall(ending: "term")
        XCTAssertEqual(summary["firstPlaylistServed"] as? Bool, true)
        XCTAssertEqual(summary["pipelinesWhileBroadcasting"] as? Int, 1)
        XCTAssertGreaterThan(summary["segmentsBeforeStop"] as? Int ?? 0, 0)
        XCTAssertEqual(summary["pipelineAliveAfterStop"] as? Bool, false)
        XCTAssertLessThan(summary["secondsUntilPipelineGoneAfterStop"] as? Double ?? 99, 2.0)
        XCTAssertEqual((summary["broadcastFilesAfterStop"] as? [String])?.count, 0, "\(summary["broadcastFilesAfterStop"] ?? "?")")
    }

    func test_liveLink_isPerViewer_andStopsServingAViewerBlockedFromTheCall() async throws {
        let summary = try await runCall(ending: "term")
        XCTAssertEqual(summary["viewerLinksDiffer"] as? Bool, true)
        XCTAssertEqual(summary["carolPlaylistStatusBeforeBlock"] as? Int, 200)
        XCTAssertEqual(summary["carolPlaylistStatusAfterBlock"] as? Int, 404)
        XCTAssertEqual(summary["alicePlaylistStatusAfterBlock"] as? Int, 200)
    }

    func test_sigtermWhileRecordingAndBroadcasting_leavesNoProcessAndNoTemporaryFile() async throws {
        let summary = try await runCall(ending: "term")
        assertNothingOutlived(summary)
        XCTAssertEqual((summary["janusFoldersAfterDeath"] as? [String])?.count, 0, "\(summary["janusFoldersAfterDeath"] ?? "?")")
        XCTAssertEqual((summary["liveFilesAfterDeath"] as? [String])?.count, 0, "\(summary["liveFilesAfterDeath"] ?? "?")")
    }

    func test_sigkillWhileRecordingAndBroadcasting_leavesNoProcess_andTheNextServerRemovesItsFiles() async throws {
        let summary = try await runCall(ending: "kill")
        assertNothingOutlived(summary)
        // A server killed outright cannot delete anything; the next one at the same place does.
        XCTAssertEqual(summary["restartedListening"] as? Bool, true)
        XCTAssertEqual((summary["janusFoldersAfterRestart"] as? [String])?.count, 0, "\(summary["janusFoldersAfterRestart"] ?? "?")")
        XCTAssertEqual((summary["liveFilesAfterRestart"] as? [String])?.count, 0, "\(summary["liveFilesAfterRestart"] ?? "?")")
    }

    private static func which(_ tool: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(folder)/\(tool)") { return "\(folder)/\(tool)" }
        return nil
    }
}
