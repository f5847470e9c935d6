import FoundationEssentials
import GLibBridge

/// Prints preview timing for the benchmark when `CONFAB_STATS=1`: the monotonic time of the
/// first frame shown (the bench compares it with its own launch time on the same clock) and
/// the frames shown in each following second.
@MainActor
final class PreviewStatistics {
    private let enabled = ProcessInfo.processInfo.environment["CONFAB_STATS"] == "1"
    private var firstFrameReported = false
    private var windowStart = 0.0
    private var framesInWindow = 0

    func frameShown() {
        guard enabled else { return }
        let now = monotonicSeconds()
        if !firstFrameReported {
            firstFrameReported = true
            windowStart = now
            report("first-frame-monotonic=\(now)")
            return
        }
        framesInWindow += 1
        if now - windowStart >= 1 {
            report("frames-per-second=\(Double(framesInWindow) / (now - windowStart))")
            windowStart = now
            framesInWindow = 0
        }
    }

    private func report(_ line: String) {
        StandardError.write("confab-stats: \(line)\n")
    }
}
