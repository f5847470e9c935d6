import ConfabTestSupport
import Foundation
import XCTest

/// Recording and broadcasting through a real Janus, in a throwaway network namespace: alice
/// (host, red, 440 Hz) and bob (green, 660 Hz) publish test media; alice's controls
/// (Support/production-host.py) record 5 s, then broadcast, copy the HLS segments and stop.
///
/// One call serves every test here; each test checks one behaviour of it.
final class Production_EndToEndTests: XCTestCase {
    private static let call = "default:production-e2e"
    private static let recordSeconds = 5.0
    /// alice first, so she creates the call and is its host.
    private static let peers = [("alice", 0.0, "FF0000", "440"), ("bob", 0.7, "00FF00", "660")].map { user, delay, color, tone in
        MediaCall.Peer(user: user, joinsAfter: delay, arguments: [
            "join", call, "--create", "--duration", "17", "--color", color, "--tone", tone, "--volume", "0.5"])
    }
    private static var outcome: Result<URL, any Error>?

    private var folder: URL!
    private var host: [String: Any] = [:]

    override func setUp() async throws {
        if let reason = MediaCall.namespaceUnavailableReason() {
            throw XCTSkip("production end-to-end tests need a network namespace: \(reason)")
        }
        for tool in ["janus", "janus-pp-rec", "gst-discoverer-1.0"] where Self.which(tool) == nil {
            let banner = String(repeating: "!", count: 78)
            print("\n\(banner)\n!! SKIPPING the recording/broadcast end-to-end tests: \(tool) is not installed "
                + "(meson-helpers/install-deps installs janus, janus-tools, gstreamer1.0-plugins-base-apps).\n\(banner)\n")
            throw XCTSkip("\(tool) is not installed")
        }
        if Self.outcome == nil {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-production-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let script = MediaCall.repository.appendingPathComponent("Tests/ConfabEndToEndTests/Support/production-host.py").path
            do {
                _ = try await MediaCall(
                    peers: Self.peers, controller: ["python3", script, Self.call, "\(Self.recordSeconds)"],
                    outputDirectory: directory
                ).run(timeout: .seconds(60))
                Self.outcome = .success(directory)
            } catch {
                Self.outcome = .failure(error)
            }
        }
        folder = try XCTUnwrap(Self.outcome).get()
        let summary = folder.appendingPathComponent("host.json")
        let log = (try? String(contentsOf: folder.appendingPathComponent("controller.log"), encoding: .utf8)) ?? ""
        guard let data = try? Data(contentsOf: summary),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw TestFailure("the host's controls wrote no summary; controller.log:\n\(log)") }
        host = object
    }

    // MARK: Recording

    func test_recording_convertsOneFilePerParticipant_withAudioAndVideo_ofTheRecordedDuration() async throws {
        XCTAssertEqual(host["recordingErrors"] as? [String], [], "conversion errors")
        let recordings = try XCTUnwrap(host["recordings"] as? [[String: Any]])
        XCTAssertEqual(Set(recordings.compactMap { $0["participant"] as? String }), ["alice", "bob"])
        let truth = try XCTUnwrap(host["recordedSeconds"] as? Double)
        for recording in recordings {
            XCTAssertEqual(recording["downloadStatus"] as? Int, 200)
            let file = try XCTUnwrap(recording["file"] as? String)
            let report = try await Self.discover(file)
            XCTAssertTrue(report.contains("video #") && report.contains("VP8"), "no VP8 video in \(file):\n\(report)")
            XCTAssertTrue(report.contains("audio #") && report.contains("Opus"), "no Opus audio in \(file):\n\(report)")
            let duration = try XCTUnwrap(Self.duration(in: report), "no duration in:\n\(report)")
            print("recording of \(recording["participant"] ?? "?"): \(duration) s (recorded for \(truth) s)")
            XCTAssertEqual(duration, truth, accuracy: 1.0, "\(file)")
            XCTAssertEqual(recording["duration"] as? Double ?? 0, duration, accuracy: 0.1)
        }
    }

    func test_recordingDownload_withoutAuth_isRefused() throws {
        XCTAssertEqual(host["unauthenticatedStatus"] as? Int, 401)
    }

    func test_recordingState_reachedEveryPeer_requestedThenRecording() throws {
        for user in ["alice", "bob"] {
            let states = try Self.peerEvents(user, in: folder).compactMap { $0["recordingState"] as? String }
            XCTAssertTrue(states.contains("recording"), "\(user) saw \(states)")
        }
        let hostStates = (host["events"] as? [[String: Any]] ?? []).compactMap { $0["recordingState"] as? String }
        // (Before the host asks, calls are "noRecording"; from then on: requested, then recording.)
        XCTAssertEqual(Array(hostStates.drop { $0 == "noRecording" }.prefix(2)), ["requested", "recording"], "\(hostStates)")
    }

    // MARK: Broadcasting

    func test_broadcast_servesAPlaylist_whoseSegmentsDecode() async throws {
        let segments = try XCTUnwrap(host["segments"] as? [String])
        XCTAssertGreaterThanOrEqual(segments.count, 2, "segments: \(segments)")
        // The first segments can end before the first keyframe arrived (a viewer's player skips
        // them the same way); at least two must carry decodable H.264 video.
        var decodable: [String] = []
        var reports: [String] = []
        for name in segments {
            let report = try await Self.discover(folder.appendingPathComponent("hls/\(name)").path)
            if report.contains("video #") && report.contains("H.264") { decodable.append(name) }
            reports.append("\(name):\n\(report)")
        }
        XCTAssertGreaterThanOrEqual(decodable.count, 2, reports.joined(separator: "\n"))
    }

    func test_hlsPlaylistUrl_reachedEveryPeer_eachWithTheirOwnViewerLink() throws {
        let url = try XCTUnwrap(host["hlsPlaylistUrl"] as? String)
        XCTAssertTrue(url.contains("/live/") && url.hasSuffix("/playlist.m3u8"), url)
        // …/live/NAME/USER/KEY/playlist.m3u8: one broadcast, a link per viewer (issue 16: each
        // request checks that viewer may still read the call).
        let alicePart = try XCTUnwrap(url.range(of: "/alice/"), url)
        let broadcast = String(url[..<alicePart.lowerBound])
        for user in ["alice", "bob"] {
            let seen = try Self.peerEvents(user, in: folder).compactMap { $0["hlsPlaylistUrl"] as? String }
            XCTAssertTrue(seen.contains { $0.hasPrefix(broadcast + "/\(user)/") && $0.hasSuffix("/playlist.m3u8") },
                          "\(user) never saw a link to \(broadcast): \(seen)")
        }
    }

    func test_stopBroadcasting_removesThePlaylist() throws {
        XCTAssertEqual(host["playlistStatusAfterStop"] as? Int, 404)
    }

    // MARK: Helpers

    private static func peerEvents(_ user: String, in folder: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("\(user).json"))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return report["events"] as? [[String: Any]] ?? []
    }

    private static func discover(_ path: String) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gst-discoverer-1.0", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private static func duration(in report: String) -> Double? {
        guard let line = report.split(separator: "\n").first(where: { $0.contains("Duration:") }),
              let clock = line.split(separator: " ").last else { return nil }
        let fields = clock.split(separator: ":").compactMap { Double($0) }
        return fields.count == 3 ? fields[0] * 3600 + fields[1] * 60 + fields[2] : nil
    }

    private static func which(_ tool: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(folder)/\(tool)") { return "\(folder)/\(tool)" }
        return nil
    }
}
