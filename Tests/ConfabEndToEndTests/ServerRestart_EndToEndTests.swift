import Foundation
import XCTest

/// confab-server itself goes away in the middle of a call and comes back (an update, a crash
/// and a restart by the service manager): alice (red) and bob (green) are in a call; 5 s in the
/// server is stopped — its Janus with it — and started again on the same address with the same
/// database. Each app reconnects to the coordinator, rejoins the call, gets a new media endpoint
/// and connects again by itself; they see and hear each other again.
final class ServerRestart_EndToEndTests: XCTestCase {
    private static let call = "default:restart-e2e"
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: [
            "join", call, "--create", "--duration", "18", "--color", "FF0000", "--tone", "440"]),
        MediaCall.Peer(user: "bob", joinsAfter: 0, arguments: [
            "join", call, "--create", "--duration", "18", "--color", "00FF00", "--tone", "660"]),
    ]

    private var reports: [String: MediaPeerReport] = [:]
    private var backAt = Date.distantPast

    override func setUp() async throws {
        (reports, backAt) = try await MediaCall.reports(for: "server restart", peers: Self.peers,
                                                       controller: [MediaCall.supportScript("restart-server.sh"), "5", "16"],
                                                       stampFile: "server-back-at")
    }

    func test_bothReconnectAndRejoin_byThemselves() throws {
        for user in ["alice", "bob"] {
            let messages = try XCTUnwrap(reports[user]?.media?.messages)
            XCTAssertTrue(messages.contains("Audio and video are back."), "\(user)'s media did not come back: \(messages)")
            XCTAssertNil(reports[user]?.error, "\(user)'s peer failed: \(reports[user]?.error ?? "")")
        }
    }

    func test_afterTheRestart_eachSeesAndHearsTheOtherAgain() throws {
        for (observer, sender, color) in [("alice", "bob", "00FF00"), ("bob", "alice", "FF0000")] {
            let feeds = try XCTUnwrap(reports[observer]?.media?.remote.filter { $0.userID == sender })
            // The rejoin is a new participant session, so a new entry in the report.
            let again = try XCTUnwrap(feeds.last { ($0.firstFrameAt ?? .distantPast) > backAt },
                                      "\(observer) never got \(sender)'s media after the server came back (\(feeds.count) feeds)")
            XCTAssertGreaterThan(again.framesReceived, 30, "\(observer) decoded few frames from \(sender) after the restart")
            XCTAssertGreaterThan(again.audioReadings, 10, "\(observer) heard little from \(sender) after the restart")
            let pixel = try XCTUnwrap(again.centerPixel)
            XCTAssertTrue(pixel.matches(hex: color, tolerance: 24), "\(observer) saw \(sender) as \(pixel) after the restart")
            let seconds = try XCTUnwrap(again.firstFrameAt).timeIntervalSince(backAt)
            print("restart: \(observer) saw \(sender) again \(String(format: "%.1f", seconds)) s after the server was back")
        }
    }
}
