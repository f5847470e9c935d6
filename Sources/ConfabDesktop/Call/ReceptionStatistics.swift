import ConfabMedia
import FoundationEssentials
import GLibBridge

/// When `CONFAB_STATS=1`, prints once a second what the call receives from each participant
/// and what it sends, for the UI tests and benchmarks (a user sees the same in the tiles):
///
///     confab-stats: receiving user=bob size=640x360 fps=30.0 kbps=512.3 paused=0
///     confab-stats: sending size=1280x720 fps=30 kbps=1430.1 target=1500.0 loss=0.000 camera=1280x720
///     confab-stats: first-frame user=bob at=1795000000.123
///     confab-stats: self-view frames=1234 size=425x505
///
/// (`first-frame` once per feed: the wall-clock time its first frame reached the main thread,
/// which `meson-helpers/bench-media` compares with the moment it clicked Join.)
@MainActor
final class ReceptionStatistics {
    private var timer: RepeatingTimer?
    private var firstFramesReported: Set<UInt64> = []

    /// Nil unless `CONFAB_STATS=1`.
    init?(media: GStreamerCallMediaEngine, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment["CONFAB_STATS"] == "1" else { return nil }
        timer = RepeatingTimer(interval: 1) { [weak self, weak media] in
            guard let self, let session = media?.session else { return }
            for feed in session.remoteFeeds.values.sorted(by: { $0.id < $1.id }) where !feed.isScreenshare {
                if let first = feed.firstFrameAt, self.firstFramesReported.insert(feed.id).inserted {
                    Self.report("first-frame user=\(feed.userID) at=\(first.timeIntervalSince1970.text(decimals: 3))")
                }
                let size = feed.receivedVideoSize.map { "\($0.width)x\($0.height)" } ?? "-"
                Self.report("receiving user=\(feed.userID) size=\(size) fps=\(feed.framesPerSecond) "
                    + "kbps=\(((feed.videoBitrate ?? 0) / 100).rounded() / 10) paused=\(feed.isVideoPaused ? 1 : 0)")
            }
            if let media {
                let size = media.selfViewFrameSize.map { "\($0.width)x\($0.height)" } ?? "-"
                Self.report("self-view frames=\(media.selfViewFramesMade) size=\(size)")
            }
            if let sent = session.sentVideo {
                Self.report("sending size=\(sent.size.width)x\(sent.size.height) fps=\(sent.framerate) "
                    + "kbps=\(((sent.bitrate ?? 0) / 100).rounded() / 10) target=\(Double(sent.targetBitrate / 100) / 10) "
                    + "loss=\((sent.lossFraction ?? 0).text(decimals: 3)) camera=\(sent.cameraSize.map { "\($0.width)x\($0.height)" } ?? "-")")
            }
        }
    }

    private static func report(_ line: String) {
        StandardError.write("confab-stats: \(line)\n")
    }
}
