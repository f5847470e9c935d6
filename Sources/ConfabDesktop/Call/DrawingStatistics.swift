import FoundationEssentials
import GLibBridge
import GtkBridge

/// When `CONFAB_STATS=1`, prints once a second how often the call's window has been painted
/// and how many video frames its tiles have shown since the call page opened, for the UI
/// tests and `meson-helpers/bench-media` (issue 15: drawing is what the app pays beyond
/// confab-peer):
///
///     confab-stats: drawing paints=1234 frames=2345 self=1170
///
/// (`frames` counts every tile's frames, ours included; `self` ours alone.)
@MainActor
final class DrawingStatistics {
    private let paints: PaintCounter
    private var timer: RepeatingTimer?

    /// Nil unless `CONFAB_STATS=1`.
    init?(content: Widget, framesShown: @escaping @MainActor () -> (all: Int, ours: Int),
          environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment["CONFAB_STATS"] == "1" else { return nil }
        let paints = PaintCounter(widget: content)
        self.paints = paints
        timer = RepeatingTimer(interval: 1) {
            let frames = framesShown()
            StandardError.write("confab-stats: drawing paints=\(paints.count) frames=\(frames.all) self=\(frames.ours)\n")
        }
    }
}
