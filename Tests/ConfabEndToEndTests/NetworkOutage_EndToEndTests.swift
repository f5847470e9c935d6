import Foundation
import XCTest

/// A network that goes away and comes back (issue 14): mid-call every UDP packet is dropped for
/// a while (nftables; signalling is TCP and stays), then the path is back. Media must come back
/// by itself, both ways. (Its tests are its subclasses': XCTest on Linux runs a class's own
/// test methods only.)
class NetworkOutageCall: XCTestCase {
    class var name: String { "network-outage" }
    class var outageLasts: Double { 3 }
    /// Seconds after the network is back by which both must see and hear each other again.
    class var backWithin: Double { 5 }
    private static let outageStartsAfter = 8.0
    private class var peers: [MediaCall.Peer] {
        let call = "default:\(name)", duration = "\(Int(outageStartsAfter + outageLasts + 9))"
        return [
            MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: ["join", call, "--create", "--duration", duration, "--pattern", "ball", "--tone", "440"]),
            MediaCall.Peer(user: "bob", joinsAfter: 0, arguments: ["join", call, "--create", "--duration", duration, "--pattern", "smpte", "--tone", "660"]),
        ]
    }

    private var reports: [String: MediaPeerReport] = [:]
    private var outageStartedAt = Date()
    private var outageEndedAt: Date { outageStartedAt.addingTimeInterval(Self.outageLasts) }

    override func setUp() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nft") else {
            throw XCTSkip("nft (Debian nftables) is not installed; `make test-deps` installs it")
        }
        (reports, outageStartedAt) = try await MediaCall.reports(
            for: Self.name, peers: Self.peers,
            controller: [MediaCall.supportScript("packet-loss.sh"), "\(Self.outageStartsAfter)", "\(Self.outageLasts)", "100"],
            stampFile: "loss-started-at")
    }

    func checkBothSeeAndHearEachOtherAgainSoon_asLargeAsBefore() throws {
        for (observer, sender) in [("alice", "bob"), ("bob", "alice")] {
            let received = try XCTUnwrap(reports[observer]?.received(from: sender), "\(observer) received nothing from \(sender)")
            // The outage is real: frames stopped during it.
            let duringFrom = outageStartedAt.addingTimeInterval(1), duringTo = outageEndedAt
            let framesDuring = try XCTUnwrap(received.frames(at: duringTo)) - (try XCTUnwrap(received.frames(at: duringFrom)))
            XCTAssertLessThanOrEqual(framesDuring, 2, "\(observer) kept receiving \(sender) while every UDP packet was dropped")
            // Back: the first moment after the outage from which frames and audio grow again.
            let atEnd = try XCTUnwrap(received.frames(at: outageEndedAt))
            let videoBack = try XCTUnwrap(received.samples.first { $0.at > outageEndedAt && $0.framesReceived > atEnd + 5 },
                                          "\(observer) never saw \(sender)'s video again\n\(diagnosis(observer: observer, sender: sender))")
                .at.timeIntervalSince(outageEndedAt)
            let audioAtEnd = try XCTUnwrap(received.audioReadings(at: outageEndedAt))
            let audioBack = try XCTUnwrap(received.samples.first { $0.at > outageEndedAt && $0.audioReadings > audioAtEnd + 5 },
                                          "\(observer) never heard \(sender) again\n\(diagnosis(observer: observer, sender: sender))")
                .at.timeIntervalSince(outageEndedAt)
            print("network outage of \(Self.outageLasts) s: \(observer) saw \(sender) again \(videoBack) s and heard them \(audioBack) s after the path came back")
            // And as large as before: the packets lost in the outage are no congestion. (They
            // were taken for one: the sender fell to its smallest size, 320x180, and took 8 s
            // to climb back.)
            let widthBefore = try XCTUnwrap(received.samples.last { $0.at <= outageStartedAt }?.width)
            let back = outageEndedAt.addingTimeInterval(videoBack)
            let widthsAfter = received.samples.filter { $0.at > back.addingTimeInterval(1) && $0.at <= back.addingTimeInterval(3) }.compactMap(\.width)
            XCTAssertFalse(widthsAfter.isEmpty, "no sample of \(sender)'s video in the 3 s after it came back")
            XCTAssertGreaterThanOrEqual(widthsAfter.min() ?? 0, widthBefore,
                                        "\(observer) saw \(sender) at widths \(widthsAfter) after the outage, \(widthBefore) before\n\(diagnosis(observer: observer, sender: sender))")
            XCTAssertLessThanOrEqual(videoBack, Self.backWithin, "\(observer) saw \(sender)'s video again only after \(videoBack) s")
            XCTAssertLessThanOrEqual(audioBack, Self.backWithin, "\(observer) heard \(sender) again only after \(audioBack) s")
        }
    }

    /// What the reports say about one direction from just before the outage on, for a failure
    /// that does not come back: what the observer received sample by sample, what it saw change
    /// and asked for, and what the sender sent. (Once in many runs video did not come back; the
    /// frame counts alone could not say why.)
    private func diagnosis(observer: String, sender: String) -> String {
        let from = outageStartedAt.addingTimeInterval(-1)
        func time(_ date: Date) -> String { String(format: "%+.2f s", date.timeIntervalSince(outageEndedAt)) }
        var lines = ["(times from the end of the outage)"]
        if let received = reports[observer]?.received(from: sender) {
            lines.append("\(observer) asked for \(received.videoKeyframeRequestsSent ?? -1) keyframes and \(received.videoNacksSent ?? -1) packets again")
            for change in received.changes where change.at >= from {
                lines.append("\(time(change.at)) \(observer) sees \(sender): video \(change.hasVideo), audio \(change.hasAudio)")
            }
            for sample in received.samples where sample.at >= from {
                lines.append("\(time(sample.at)) \(observer) received frames \(sample.framesReceived), audio \(sample.audioReadings), "
                    + "\(sample.width ?? 0)x\(sample.height ?? 0) at \(sample.framesPerSecond ?? 0) fps, \(sample.videoKilobitsPerSecond ?? 0) kbit/s")
            }
        }
        for sample in reports[sender]?.media?.sentVideo ?? [] where sample.at >= from {
            lines.append("\(time(sample.at)) \(sender) sent \(sample.width)x\(sample.height)@\(sample.framerate ?? 0), target \(sample.targetKilobitsPerSecond ?? 0), "
                + "delivered \(sample.deliveredKilobitsPerSecond ?? -1), transport \(sample.transportSentKilobitsPerSecond ?? -1) kbit/s")
        }
        return lines.joined(separator: "\n")
    }
}

/// Every UDP packet dropped for 3 s.
final class NetworkOutage_EndToEndTests: NetworkOutageCall {
    func test_udpGoneFor3s_bothSeeAndHearEachOtherAgainWithin5s_asLargeAsBefore() throws {
        try checkBothSeeAndHearEachOtherAgainSoon_asLargeAsBefore()
    }
}

/// The same for 13 s: long enough that each side gives its connection up (its path down 6 s)
/// and tries a new one while the network is still away. Such a try did not come up when the
/// network came back: it was given up only at its 8 s limit, and media came back 6.1–7.1 s
/// after the network (two runs of this test; bob's video 5.7 s after it in the UI's
/// `MediaPathLost`). A try on which Janus sent nothing for 4 s is given up now, and the one after
/// it finds the network back: 2.0–2.7 s in three runs.
final class LongNetworkOutage_EndToEndTests: NetworkOutageCall {
    override class var name: String { "long-network-outage" }
    override class var outageLasts: Double { 13 }
    /// A retry comes every ~5 s while the network is away, so how soon media is back depends on
    /// where in that the network returns: 2.0–2.7 s here, 3.1–4.1 s in a clean-clone CI run;
    /// with the old limit 6.1–7.1 s.
    override class var backWithin: Double { 6 }

    func test_udpGoneFor13s_bothSeeAndHearEachOtherAgainWithin6s_asLargeAsBefore() throws {
        try checkBothSeeAndHearEachOtherAgainSoon_asLargeAsBefore()
    }
}
