import ConfabCore
import GLibBridge

/// Reads the RTP session's own numbers that webrtcbin attaches to each stream report
/// (`gst-rtpsource-stats`, a serialised structure): counters the report itself lacks (NACKs
/// and PLIs we sent) and the stream's clock rate.
///
/// With bundling, GStreamer 1.22 labels a sender's video report "kind: audio" (and gives it the
/// audio codec); the clock rate tells video (90 kHz) from Opus (48 kHz).
enum RTPSourceStatistics {
    static func isVideo(_ report: [String: StatisticValue]) -> Bool {
        value("clock-rate", in: report) == 90_000
    }

    /// The number after `key=(type)` in the report's RTP source statistics, if there is one.
    static func value(_ key: String, in report: [String: StatisticValue]) -> Double? {
        guard let text = report["gst-rtpsource-stats"]?.text?.replacing("\\", with: "") else { return nil }
        guard let keyRange = text.firstRange(of: " \(key)=(") ?? text.firstRange(of: ",\(key)=(") else { return nil }
        guard let typeEnd = text[keyRange.upperBound...].firstIndex(of: ")") else { return nil }
        let digits = text[text.index(after: typeEnd)...].prefix { $0.isNumber || $0 == "-" }
        return Double(digits)
    }
}

extension TransportFeedback {
    /// From rtpsession's TWCC summary (`WebRTCBin.transportFeedbackSummary`); nil before the
    /// first feedback (no bitrates yet).
    init?(summary: [String: StatisticValue]) {
        guard let sent = summary["bitrate-sent"]?.number, let delivered = summary["bitrate-recv"]?.number, sent > 0 else { return nil }
        self.init(sentBitrate: sent, deliveredBitrate: delivered,
                  lossFraction: (summary["packet-loss-pct"]?.number ?? 0) / 100,
                  // Nanoseconds; GStreamer's "none" (no pair of packets to compare) reads as no growth.
                  delayGrowth: (summary["avg-delta-of-delta"]?.number).map { abs($0) < 1e12 ? $0 / 1e9 : 0 } ?? 0)
    }
}
