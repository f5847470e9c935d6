import FoundationEssentials
import GLibBridge
import GtkBridge

/// When `CONFAB_STATS=1`, prints once a second how often the call's window has been painted
/// and how many video frames its tiles have shown since the call page opened, for the UI
/// tests and `meson-helpers/bench-media` (issue 15: drawing is what the app pays beyond
/// confab-peer):
///
///     confab-stats: drawing paints=1234 frames=2345 self=1170 textures=0 cairo=2300
///
/// (`paints` counts the window's; `frames` every tile's frames, ours included; `self` ours
/// alone; `textures` and `cairo` the tiles' paints of a frame as a texture, which a renderer
/// other than cairo's takes, and with cairo: see `VideoPicture`.)
@MainActor
final class DrawingStatistics {
    private let paints: PaintCounter
    private var timer: RepeatingTimer?

    /// What the tiles did since the call page opened.
    struct Counts {
        var frames = 0
        var ours = 0
        var paints = PaintCounts()
    }

    /// Nil unless `CONFAB_STATS=1`.
    init?(content: Widget, counts: @escaping @MainActor () -> Counts,
          environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment["CONFAB_STATS"] == "1" else { return nil }
        let paints = PaintCounter(widget: content)
        self.paints = paints
        timer = RepeatingTimer(interval: 1) {
            let tiles = counts()
            StandardError.write("confab-stats: drawing paints=\(paints.count) frames=\(tiles.frames) self=\(tiles.ours) "
                                + "textures=\(tiles.paints.asTextures) cairo=\(tiles.paints.withCairo)\n")
        }
    }
}
