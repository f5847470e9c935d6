import FoundationEssentials
import GLibBridge

/// Marks the steps from joining to the first remote frame on stderr, with the monotonic
/// time, when `CONFAB_TIMELINE=1`: bench-media sets it and prints the steps of the last to
/// join, to say where the time to the first frame goes. Silent otherwise.
public enum JoinTimeline {
    private static let enabled = ProcessInfo.processInfo.environment["CONFAB_TIMELINE"] == "1"

    public static func mark(_ step: String, feed: UInt64? = nil) {
        guard enabled else { return }
        let line = "confab-timeline \(step)\(feed.map { " feed=\($0)" } ?? "") at=\(monotonicSeconds().text(decimals: 4))\n"
        StandardError.write(line)
    }
}
