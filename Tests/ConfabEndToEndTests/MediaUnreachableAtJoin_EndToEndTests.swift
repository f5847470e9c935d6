import Foundation
import XCTest

/// The media server is unreachable at the moment someone joins, and back seconds later: alice
/// (red) is in a call through confab-server's managed Janus; from 2 s in, Janus refuses new
/// connections for 3 s (a Janus that is down, or not yet back after a restart), and bob (green)
/// joins 1 s into that. He is in the call all the same, is told that audio and video could not
/// connect, keeps trying by himself, and once Janus answers again they see and hear each other.
final class MediaUnreachableAtJoin_EndToEndTests: XCTestCase {
    private static let call = "default:unreachable-at-join-e2e"
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: [
            "join", call, "--create", "--duration", "15", "--color", "FF0000", "--tone", "440"]),
        MediaCall.Peer(user: "bob", joinsAfter: 3, arguments: [
            "join", call, "--create", "--duration", "12", "--color", "00FF00", "--tone", "660"]),
    ]

    private var reports: [String: MediaPeerReport] = [:]
    private var blockedAt = Date.distantPast
    private var unblockedAt = Date.distantPast

    override func setUp() async throws {
        let (reports, stamps) = try await MediaCall.reports(for: "media server unreachable at join", peers: Self.peers,
                                                            controller: [MediaCall.supportScript("block-janus.sh"), "2", "3"],
                                                            stampFiles: ["janus-blocked-at", "janus-unblocked-at"])
        self.reports = reports
        blockedAt = try XCTUnwrap(stamps["janus-blocked-at"])
        unblockedAt = try XCTUnwrap(stamps["janus-unblocked-at"])
    }

    func test_bobIsTold_andConnectsByHimselfOnceItIsBack() throws {
        let joined = try XCTUnwrap(reports["bob"]?.media?.joinRequestedAt)
        XCTAssertTrue(joined > blockedAt && joined < unblockedAt, "bob asked to join at \(joined), not while Janus refused (\(blockedAt)–\(unblockedAt))")
        let messages = try XCTUnwrap(reports["bob"]?.media?.messages)
        XCTAssertTrue(messages.contains { $0.hasPrefix("Couldn’t connect audio and video") }, "bob was not told: \(messages)")
        XCTAssertTrue(messages.contains("Audio and video are back."), "bob's media never connected: \(messages)")
        let aliceMessages = try XCTUnwrap(reports["alice"]?.media?.messages)
        XCTAssertFalse(aliceMessages.contains { $0.contains("audio and video") }, "alice, already connected, was told of trouble: \(aliceMessages)")
    }

    func test_onceItIsBack_eachSeesAndHearsTheOther() throws {
        for (observer, sender, color) in [("bob", "alice", "FF0000"), ("alice", "bob", "00FF00")] {
            let received = try XCTUnwrap(reports[observer]?.received(from: sender), "\(observer) received nothing from \(sender)")
            // No sample by then: nothing of the sender's was being received at all.
            let framesBefore = received.frames(at: unblockedAt) ?? 0
            XCTAssertEqual(framesBefore, 0, "\(observer) decoded \(sender)'s frames while bob could not reach the media server")
            XCTAssertGreaterThan(received.framesReceived, 30, "\(observer) decoded few frames from \(sender)")
            XCTAssertGreaterThan(received.audioReadings, 10, "\(observer) heard little from \(sender)")
            let pixel = try XCTUnwrap(received.centerPixel)
            XCTAssertTrue(pixel.matches(hex: color, tolerance: 24), "\(observer) saw \(sender) as \(pixel)")
            if let first = received.samples.first(where: { $0.framesReceived > 0 }) {
                print("unreachable at join: \(observer) saw \(sender) \(String(format: "%.1f", first.at.timeIntervalSince(unblockedAt))) s after Janus answered again")
            }
        }
    }

    func test_bobIsInTheCall_throughout() throws {
        let participants = try XCTUnwrap(reports["alice"]?.participants)
        let bob = try XCTUnwrap(participants.first { $0.user == "bob" }, "alice never saw bob join: \(participants.map(\.user))")
        // He leaves when his 12 s are up, 10 s after Janus answered again; not before.
        if let left = bob.leftAt {
            XCTAssertGreaterThan(left, unblockedAt.addingTimeInterval(5), "bob left the call when only his media could not connect")
        }
    }
}
