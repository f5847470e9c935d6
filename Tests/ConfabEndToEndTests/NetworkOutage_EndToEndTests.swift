import Foundation
import XCTest

/// A network that goes away and comes back (issue 14): mid-call every UDP packet is dropped for
/// 3 s (nftables; signalling is TCP and stays), then the path is back. Media must come back by
/// itself, both ways.
final class NetworkOutage_EndToEndTests: XCTestCase {
    private static let call = "default:network-outage"
    private static let outageStartsAfter = 8.0
    private static let outageLasts = 3.0
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: ["join", call, "--create", "--duration", "20", "--pattern", "ball", "--tone", "440"]),
        MediaCall.Peer(user: "bob", joinsAfter: 0, arguments: ["join", call, "--create", "--duration", "20", "--pattern", "smpte", "--tone", "660"]),
    ]

    private var reports: [String: MediaPeerReport] = [:]
    private var outageStartedAt = Date()
    private var outageEndedAt: Date { outageStartedAt.addingTimeInterval(Self.outageLasts) }

    override func setUp() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nft") else {
            throw XCTSkip("nft (Debian nftables) is not installed; `make test-deps` installs it")
        }
        (reports, outageStartedAt) = try await MediaCall.reports(
            for: "network-outage", peers: Self.peers,
            controller: [MediaCall.supportScript("packet-loss.sh"), "\(Self.outageStartsAfter)", "\(Self.outageLasts)", "100"],
            stampFile: "loss-started-at")
    }

    func test_udpGoneFor3s_bothSeeAndHearEachOtherAgainWithin5s() throws {
        for (observer, sender) in [("alice", "bob"), ("bob", "alice")] {
            let received = try XCTUnwrap(reports[observer]?.received(from: sender), "\(observer) received nothing from \(sender)")
            // The outage is real: frames stopped during it.
            let duringFrom = outageStartedAt.addingTimeInterval(1), duringTo = outageEndedAt
            let framesDuring = try XCTUnwrap(received.frames(at: duringTo)) - (try XCTUnwrap(received.frames(at: duringFrom)))
            XCTAssertLessThanOrEqual(framesDuring, 2, "\(observer) kept receiving \(sender) while every UDP packet was dropped")
            // Back: the first moment after the outage from which frames and audio grow again.
            let atEnd = try XCTUnwrap(received.frames(at: outageEndedAt))
            let videoBack = try XCTUnwrap(received.samples.first { $0.at > outageEndedAt && $0.framesReceived > atEnd + 5 },
                                          "\(observer) never saw \(sender)'s video again").at.timeIntervalSince(outageEndedAt)
            let audioAtEnd = try XCTUnwrap(received.audioReadings(at: outageEndedAt))
            let audioBack = try XCTUnwrap(received.samples.first { $0.at > outageEndedAt && $0.audioReadings > audioAtEnd + 5 },
                                          "\(observer) never heard \(sender) again").at.timeIntervalSince(outageEndedAt)
            print("network outage: \(observer) saw \(sender) again \(videoBack) s and heard them \(audioBack) s after the path came back")
            XCTAssertLessThanOrEqual(videoBack, 5, "\(observer) saw \(sender)'s video again only after \(videoBack) s")
            XCTAssertLessThanOrEqual(audioBack, 5, "\(observer) heard \(sender) again only after \(audioBack) s")
        }
    }
}
