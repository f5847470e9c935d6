import ConfabCore
@testable import ConfabMedia
import GLibBridge
import XCTest

/// Numbers read from the RTP source statistics webrtcbin attaches to a stream report (as it
/// serialises them: escaped spaces, commas and brackets).
final class RTPSourceStatistics_Tests: XCTestCase {
    private static let videoReport: [String: StatisticValue] = [
        "type": .text("outbound-rtp"), "kind": .text("audio"),
        "gst-rtpsource-stats": .text(#"application/x-rtp-source-stats\,\ ssrc\=\(uint\)3600918513\,\ clock-rate\=\(int\)90000\,\ "#
            + #"sent-pli-count\=\(uint\)2\,\ sent-fir-count\=\(uint\)1\,\ sent-nack-count\=\(uint\)17\,\ packets-lost\=\(int\)-1\;"#),
    ]

    func test_videoIsTold_byItsClockRate_notByTheKindLabel() {
        XCTAssertTrue(RTPSourceStatistics.isVideo(Self.videoReport))
        var audio = Self.videoReport
        audio["gst-rtpsource-stats"] = .text(#"application/x-rtp-source-stats\,\ clock-rate\=\(int\)48000\;"#)
        XCTAssertFalse(RTPSourceStatistics.isVideo(audio))
    }

    func test_countersAreRead_byTheirWholeName() {
        XCTAssertEqual(RTPSourceStatistics.value("sent-nack-count", in: Self.videoReport), 17)
        XCTAssertEqual(RTPSourceStatistics.value("sent-pli-count", in: Self.videoReport), 2)
        XCTAssertEqual(RTPSourceStatistics.value("packets-lost", in: Self.videoReport), -1)
        XCTAssertNil(RTPSourceStatistics.value("nack-count", in: Self.videoReport), "a suffix of another name is not that name")
        XCTAssertNil(RTPSourceStatistics.value("sent-nack-count", in: ["type": .text("inbound-rtp")]))
    }

    func test_transportFeedback_isReadFromRTPSessionsSummary() throws {
        let feedback = try XCTUnwrap(TransportFeedback(summary: [
            "bitrate-sent": .number(800_000), "bitrate-recv": .number(280_000), "packet-loss-pct": .number(12.5),
            "avg-delta-of-delta": .number(3_000_000), "packets-sent": .number(90),
        ]))
        XCTAssertEqual(feedback, TransportFeedback(sentBitrate: 800_000, deliveredBitrate: 280_000, lossFraction: 0.125, delayGrowth: 0.003))
        XCTAssertNil(TransportFeedback(summary: ["bitrate-sent": .number(0), "bitrate-recv": .number(0)]), "before any feedback")
        // GStreamer's "no value" for the delay (G_MININT64) is no growth, not minus 292 years.
        XCTAssertEqual(TransportFeedback(summary: ["bitrate-sent": .number(1), "bitrate-recv": .number(1),
                                                   "avg-delta-of-delta": .number(-9_223_372_036_854_775_808)])?.delayGrowth, 0)
    }
}
