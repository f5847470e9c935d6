import Foundation
import XCTest

/// Broken parts do not break the call. The media server dies in the middle of it: alice (red)
/// and bob (green) are in a call through confab-server's managed Janus, which is killed 5 s in
/// (as a crash would). The server starts a new Janus; each app asks for a new media endpoint
/// and connects again by itself, and they see and hear each other again — the call itself never
/// ended. Later carol joins with a camera that opens but gives no picture: she is told (her
/// camera shows off), and the others hear her all the same.
final class MediaRecovery_EndToEndTests: XCTestCase {
    private static let call = "default:recovery-e2e"
    private static let killAfter = 5.0
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: [
            "join", call, "--create", "--duration", "17", "--color", "FF0000", "--tone", "440"]),
        MediaCall.Peer(user: "bob", joinsAfter: 0, arguments: [
            "join", call, "--create", "--duration", "17", "--color", "00FF00", "--tone", "660"]),
        MediaCall.Peer(user: "carol", joinsAfter: 8, arguments: [
            "join", call, "--create", "--duration", "8", "--color", "0000FF", "--tone", "880", "--camera-stuck"]),
    ]

    private var reports: [String: MediaPeerReport] = [:]
    private var killedAt = Date.distantPast

    override func setUp() async throws {
        (reports, killedAt) = try await MediaCall.reports(for: "media recovery", peers: Self.peers,
                                                       controller: [MediaCall.supportScript("kill-janus.sh"), "\(Self.killAfter)"],
                                                       stampFile: "janus-killed-at")
    }

    func test_bothAreToldAndReconnect_byThemselves() throws {
        for user in ["alice", "bob"] {
            let messages = try XCTUnwrap(reports[user]?.media?.messages)
            XCTAssertTrue(messages.contains { $0.contains("Reconnecting audio and video") }, "\(user) was not told: \(messages)")
            XCTAssertTrue(messages.contains("Audio and video are back."), "\(user)'s media did not come back: \(messages)")
        }
    }

    func test_afterTheRestart_eachSeesAndHearsTheOtherAgain() throws {
        for (observer, sender, color) in [("alice", "bob", "00FF00"), ("bob", "alice", "FF0000")] {
            let received = try XCTUnwrap(reports[observer]?.received(from: sender), "\(observer) received nothing from \(sender)")
            // Frames and sounds counted a second after the kill are from before it (nothing
            // flows through a dead Janus); everything after that came through the new one.
            let framesBefore = try XCTUnwrap(received.frames(at: killedAt.addingTimeInterval(1)))
            let readingsBefore = try XCTUnwrap(received.audioReadings(at: killedAt.addingTimeInterval(1)))
            XCTAssertGreaterThan(received.framesReceived - framesBefore, 30, "\(observer) decoded few frames from \(sender) after the restart")
            XCTAssertGreaterThan(received.audioReadings - readingsBefore, 10, "\(observer) heard little from \(sender) after the restart")
            let pixel = try XCTUnwrap(received.centerPixel)
            XCTAssertTrue(pixel.matches(hex: color, tolerance: 24), "\(observer) saw \(sender) as \(pixel) after the restart")
            if let back = received.samples.first(where: { $0.at > killedAt.addingTimeInterval(1) && $0.framesReceived > framesBefore }) {
                print("recovery: \(observer) saw \(sender) again \(String(format: "%.1f", back.at.timeIntervalSince(killedAt))) s after Janus was killed")
            }
        }
    }

    func test_stuckCamera_carolIsTold_andIsHeardWithoutVideo() throws {
        let messages = try XCTUnwrap(reports["carol"]?.media?.messages)
        XCTAssertTrue(messages.contains { $0.hasPrefix("Your camera") && $0.contains("stopped working") }, "carol was not told: \(messages)")
        let heard = try XCTUnwrap(reports["bob"]?.received(from: "carol"), "bob received nothing from carol")
        XCTAssertGreaterThan(heard.audioReadings, 10, "bob did not hear carol")
        XCTAssertEqual(heard.framesReceived, 0, "bob decoded frames from a camera that gives no picture")
    }

    func test_theCallItselfGoesOn_nobodyLeft() throws {
        for user in ["alice", "bob"] {
            let left = try XCTUnwrap(reports[user]?.participants).filter { $0.leftAt != nil && $0.leftAt! < killedAt.addingTimeInterval(8) }
            XCTAssertTrue(left.isEmpty, "\(user) saw participants leave when only the media server restarted: \(left.map(\.user))")
        }
    }
}
