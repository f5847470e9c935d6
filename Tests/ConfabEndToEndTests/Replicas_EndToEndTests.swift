import Foundation
import XCTest

/// Two coordinators on one PostgreSQL and one Janus (issue 17): alice, connected to replica A
/// (and told of B to fail over to), rings bob, connected to B; bob answers there; they see and
/// hear each other. 10 s in, replica A is killed (SIGKILL): alice's app reconnects to B by itself
/// and stays in the call, and both see and hear each other again.
final class Replicas_EndToEndTests: XCTestCase {
    private static let call = "default:replicas-e2e"
    private static let killedAfter = 10.0
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: [
            "A,B", "join", call, "--create", "--members", "bob", "--ring", "--duration", "26", "--color", "FF0000", "--tone", "440"]),
        MediaCall.Peer(user: "bob", joinsAfter: 0.5, arguments: [
            "B", "answer", "--duration", "24", "--color", "00FF00", "--tone", "660"]),
    ]

    private nonisolated(unsafe) static var outcome: Result<(reports: [String: MediaPeerReport], killedAt: Date), any Error>?
    private var reports: [String: MediaPeerReport] = [:]
    private var killedAt = Date.distantPast

    override func setUp() async throws {
        if let reason = MediaCall.namespaceUnavailableReason() {
            throw XCTSkip("replica end-to-end tests need a network namespace: \(reason)")
        }
        if Self.outcome == nil {
            do {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-replicas-\(UUID().uuidString.prefix(8))")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let call = MediaCall(peers: Self.peers, outputDirectory: directory, script: "replica-call.sh",
                                     environment: ["REPLICA_KILL_A_AFTER": String(Self.killedAfter)])
                let reports = try await call.run(timeout: .seconds(60))
                let text = try String(contentsOf: directory.appendingPathComponent("replica-a-killed-at"), encoding: .utf8)
                let killedAt = try Date(text.trimmingCharacters(in: .whitespacesAndNewlines),
                                        strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
                try? FileManager.default.removeItem(at: directory)
                Self.outcome = .success((reports, killedAt))
            } catch {
                Self.outcome = .failure(error)
            }
        }
        (reports, killedAt) = try XCTUnwrap(Self.outcome).get()
    }

    func test_bobOnB_answersAlicesRingFromA_andTheySeeAndHearEachOther() throws {
        for (observer, sender, color) in [("alice", "bob", "00FF00"), ("bob", "alice", "FF0000")] {
            let feed = try XCTUnwrap(reports[observer]?.media?.remote.first { $0.userID == sender },
                                     "\(observer) never received \(sender)'s media across the replicas")
            let beforeKill = feed.frames(at: killedAt) ?? 0
            XCTAssertGreaterThan(beforeKill, 30, "\(observer) decoded few frames from \(sender) before A was killed")
            XCTAssertGreaterThan(feed.audioReadings(at: killedAt) ?? 0, 10, "\(observer) heard little from \(sender) before A was killed")
            let pixel = try XCTUnwrap(feed.centerPixel)
            XCTAssertTrue(pixel.matches(hex: color, tolerance: 24), "\(observer) saw \(sender) as \(pixel)")
        }
    }

    func test_afterReplicaAIsKilled_aliceStaysInTheCallThroughB_withMedia() throws {
        XCTAssertNil(reports["alice"]?.error, "alice's peer failed: \(reports["alice"]?.error ?? "")")
        for (observer, sender) in [("alice", "bob"), ("bob", "alice")] {
            let feeds = try XCTUnwrap(reports[observer]?.media?.remote.filter { $0.userID == sender })
            // A rejoin is a new session, so maybe a new feed: count what every feed decoded after the kill.
            let framesAfter = feeds.reduce(0) { $0 + ($1.samples.last?.framesReceived ?? 0) - ($1.frames(at: killedAt) ?? 0) }
            let readingsAfter = feeds.reduce(0) { $0 + ($1.samples.last?.audioReadings ?? 0) - ($1.audioReadings(at: killedAt) ?? 0) }
            XCTAssertGreaterThan(framesAfter, 100, "\(observer) decoded few frames from \(sender) after replica A was killed")
            XCTAssertGreaterThan(readingsAfter, 20, "\(observer) heard little from \(sender) after replica A was killed")
            // The longest gap in what arrived after the kill, printed (a figure, not a rule).
            let moments = feeds.flatMap { feed in
                zip(feed.samples, feed.samples.dropFirst()).filter { $1.at > killedAt && $1.framesReceived > $0.framesReceived }.map(\.1.at)
            }.sorted()
            let gaps = zip([killedAt] + moments, moments).map { $1.timeIntervalSince($0) }
            print("replicas: after A was killed, \(observer) decoded \(framesAfter) frames of \(sender); longest gap "
                + String(format: "%.1f s", gaps.max() ?? -1))
        }
        let messages = try XCTUnwrap(reports["alice"]?.media?.messages)
        print("replicas: alice's messages: \(messages)")
    }
}
