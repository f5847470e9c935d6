import Foundation
import XCTest

/// Sending the size that is shown (issue 15), through a real coordinator and Janus: bob tells
/// the call he shows the others' cameras in 430x242 tiles (`--shows`), so alice takes her camera
/// and sends it at 480x270 (the smallest step that covers such a tile) at the full 30 fps, and
/// bob receives it so. Alice says nothing about what she shows: bob keeps sending the path's best (640x360).
/// Carol joins after 7 s and says nothing either: from then on nobody knows how large she shows
/// alice, so alice sends 640x360 again. 14 s.
final class ShownSize_EndToEndTests: XCTestCase {
    private static let call = "default:shown-size"
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: ["join", call, "--create", "--duration", "14", "--pattern", "ball"]),
        MediaCall.Peer(user: "bob", joinsAfter: 0, arguments: ["join", call, "--create", "--duration", "14", "--pattern", "ball", "--shows", "430x242"]),
        MediaCall.Peer(user: "carol", joinsAfter: 7, arguments: ["join", call, "--create", "--duration", "7", "--pattern", "ball"]),
    ]

    private var reports: [String: MediaPeerReport] = [:]

    override func setUp() async throws {
        reports = try await MediaCall.reports(for: "shown-size", peers: Self.peers) { reports in
            for user in ["alice", "bob"] {
                let sent = reports[user]?.media?.sentVideo?.map { "\($0.width)x\($0.height)@\($0.framerate ?? 0)" } ?? []
                print("shown size: \(user) sent over time: \(sent.joined(separator: " "))")
            }
        }
    }

    /// Alice's sent samples between two moments.
    private func aliceSent(from start: Date, to end: Date) throws -> [MediaPeerReport.Media.SentSample] {
        let sent = try XCTUnwrap(reports["alice"]?.media?.sentVideo, "alice's report has no sent video")
        return sent.filter { $0.at >= start && $0.at <= end }
    }

    /// From 2.5 s after alice's media connected (bob's views told, her encoder at the new size)
    /// until carol asked to join.
    private func whileOnlyBobWatched() throws -> ClosedRange<Date> {
        let aliceConnected = try XCTUnwrap(reports["alice"]?.media?.connectedAt, "alice's media never connected")
        let carolJoining = try XCTUnwrap(reports["carol"]?.media?.joinRequestedAt, "carol never asked to join")
        XCTAssertGreaterThan(carolJoining.timeIntervalSince(aliceConnected), 4, "carol joined too soon for the test to see anything")
        return aliceConnected.addingTimeInterval(2.5)...carolJoining
    }

    func test_cameraShownInSmallTiles_isSentAtTheTilesSize_atFullFrameRate() throws {
        let window = try whileOnlyBobWatched()
        let sent = try aliceSent(from: window.lowerBound, to: window.upperBound)
        XCTAssertGreaterThanOrEqual(sent.count, 2, "alice has few samples while only bob watched")
        for sample in sent {
            XCTAssertEqual([sample.width, sample.height], [480, 270], "alice sent at \(sample.width)x\(sample.height) while bob showed her at 430x242")
            XCTAssertEqual(sample.framerate, 30, "alice sent at \(sample.framerate ?? 0) fps")
            // Taken at that size, not made at 640x360 and scaled down (her self-view is not shown).
            XCTAssertEqual([sample.cameraWidth ?? 0, sample.cameraHeight ?? 0], [480, 270],
                           "alice's camera gave \(sample.cameraWidth ?? 0)x\(sample.cameraHeight ?? 0) while bob showed her at 430x242")
        }
        let received = try XCTUnwrap(reports["bob"]?.received(from: "alice")?.samples, "bob received nothing from alice")
        // A second later: what bob decodes follows what alice sends by a keyframe or so.
        let shownSmall = received.filter { $0.at >= window.lowerBound.addingTimeInterval(1) && $0.at <= window.upperBound }
        XCTAssertGreaterThanOrEqual(shownSmall.count, 2, "bob has few samples of alice before carol joined")
        for sample in shownSmall {
            XCTAssertEqual([sample.width ?? 0, sample.height ?? 0], [480, 270], "bob received alice at \(sample.width ?? 0)x\(sample.height ?? 0)")
        }
        let meanFPS = shownSmall.compactMap(\.framesPerSecond).reduce(0, +) / Double(max(1, shownSmall.count))
        XCTAssertGreaterThanOrEqual(meanFPS, 20, "bob received alice's small picture at \(meanFPS) fps")
    }

    func test_aSenderNobodySaidAnythingAbout_sendsThePathsBest() throws {
        let sent = try XCTUnwrap(reports["bob"]?.media?.sentVideo, "bob's report has no sent video")
        let late = sent.suffix(6)
        XCTAssertEqual(late.count, 6, "bob has few samples of what he sent")
        for sample in late {
            XCTAssertEqual([sample.width, sample.height], [640, 360], "bob sent at \(sample.width)x\(sample.height), though alice never said how large she shows him")
        }
    }

    func test_aViewerThatSaysNothingJoins_cameraIsSentAtThePathsBestAgain() throws {
        // Alice hears that carol joined about when carol's media connects.
        let carolConnected = try XCTUnwrap(reports["carol"]?.media?.connectedAt, "carol's media never connected")
        let sent = try aliceSent(from: carolConnected.addingTimeInterval(1), to: carolConnected.addingTimeInterval(3.5))
        XCTAssertGreaterThanOrEqual(sent.count, 2, "alice has few samples after carol joined")
        for sample in sent {
            XCTAssertEqual([sample.width, sample.height], [640, 360], "alice sent at \(sample.width)x\(sample.height) with carol, who never said, watching")
            XCTAssertEqual([sample.cameraWidth ?? 0, sample.cameraHeight ?? 0], [640, 360], "alice's camera gave \(sample.cameraWidth ?? 0)x\(sample.cameraHeight ?? 0)")
        }
    }
}
