import Foundation
import XCTest

/// confab-peer's report of video over time, through a real Janus: per remote feed the size,
/// frame rate and bitrate received every half second, and its own sent size and bitrate.
/// alice sends a moving ball (`--pattern ball`), bob SMPTE bars (`--pattern smpte`); 8 s.
final class PeerVideoReport_EndToEndTests: XCTestCase {
    private static let call = "default:video-report"
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: ["join", call, "--create", "--duration", "8", "--pattern", "ball"]),
        MediaCall.Peer(user: "bob", joinsAfter: 0, arguments: ["join", call, "--create", "--duration", "8", "--pattern", "smpte"]),
    ]

    private var reports: [String: MediaPeerReport] = [:]

    override func setUp() async throws {
        reports = try await MediaCall.reports(for: "video-report", peers: Self.peers) { reports in
            for user in ["alice", "bob"] {
                let sent = reports[user]?.media?.sentVideo?.compactMap(\.videoKilobitsPerSecond).map { String(format: "%.0f", $0) } ?? []
                print("video report: \(user) sent kbit/s over time: \(sent.joined(separator: " "))")
            }
        }
    }

    func test_eachRemoteFeed_hasSizeFrameRateAndBitrateOverTime() throws {
        for (observer, sender) in [("alice", "bob"), ("bob", "alice")] {
            let samples = try XCTUnwrap(reports[observer]?.received(from: sender)?.samples, "\(observer) received nothing from \(sender)")
            // Once video flows (the last 3 s of the call) every sample carries all three.
            let late = samples.suffix(6)
            XCTAssertEqual(late.count, 6, "\(observer) has few samples of \(sender)")
            for sample in late {
                XCTAssertEqual(sample.width, 640, "\(observer)'s sample of \(sender) at \(sample.at)")
                XCTAssertEqual(sample.height, 360, "\(observer)'s sample of \(sender) at \(sample.at)")
                XCTAssertGreaterThan(sample.framesPerSecond ?? 0, 0, "\(observer) received no frames of \(sender) at \(sample.at)")
                XCTAssertGreaterThan(sample.videoKilobitsPerSecond ?? 0, 50, "\(observer) received little video from \(sender) at \(sample.at)")
            }
            // One second's count wobbles on a busy machine; their mean is the sender's pace.
            let meanFPS = late.compactMap(\.framesPerSecond).reduce(0, +) / Double(late.count)
            XCTAssertGreaterThanOrEqual(meanFPS, 20, "\(observer) received \(sender) at \(meanFPS) fps on average")
        }
    }

    func test_ownSentVideo_hasSizeAndBitrateOverTime() throws {
        for user in ["alice", "bob"] {
            let sent = try XCTUnwrap(reports[user]?.media?.sentVideo, "\(user)'s report has no sent video")
            let late = sent.suffix(6)
            XCTAssertEqual(late.count, 6, "\(user) has few samples of what it sent")
            for sample in late {
                XCTAssertEqual([sample.width, sample.height], [640, 360], "\(user) sent at \(sample.width)x\(sample.height)")
                XCTAssertGreaterThan(sample.videoKilobitsPerSecond ?? 0, 50, "\(user) sent little video at \(sample.at)")
            }
        }
    }
}
