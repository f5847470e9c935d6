import ConfabCore
import GLibBridge

/// The end of a video branch that hands frames to the UI at exactly the pixels of the view
/// that shows them (issue 15): scaled (in the decoder's own YUV) to cover the view, the
/// overflow cut off evenly (`videocrop` in its automatic mode, centred), and only what is shown
/// converted to BGRA. The view is followed when it is resized.
///
/// Measured on this machine (bench-media --perf, and gst-launch over 900 frames of a 640x360
/// camera for a 425x505 grid tile): scaling and converting in one `videoconvertscale` pass to
/// the cover size cost 1.5 ms a frame, and GTK then copied twice the pixels it showed; scaling
/// in I420, cropping, then converting the tile's pixels costs 0.9 ms, and GTK copies only what
/// it shows. A thumbnail (confab-peer's 160x90) costs next to nothing this way, 0.6 ms a frame
/// through `videoconvertscale`.
///
/// The scaled size never depends on the received size (only the view's), so a sender that
/// changes its size mid-stream is scaled like any other: the crop, which follows the scaled
/// size, can never cut more than there is.
@MainActor
final class DisplaySizedVideo {
    private let pipeline: MediaPipeline
    private let filterName: String
    private let defaultSize: VideoSize
    private let sourceSize: @MainActor () -> VideoSize?
    /// The sizes asked for last, and the caps set now on each filter.
    private var requested: (cover: VideoSize, shown: VideoSize)
    private var coverSet: VideoSize
    private var shownSet: VideoSize
    /// Waits for the scaler to make frames at a larger cover before the shown size grows.
    private var growthCheck: RepeatingTimer?

    /// The size of the view that shows the frames (device pixels); nil until one is known,
    /// when frames come at `defaultSize`.
    var displaySize: VideoSize? {
        didSet { if displaySize != oldValue { apply() } }
    }

    /// The description of the branch's end, BGRA at `defaultSize` until told otherwise: its
    /// scaler's caps are `filterName-cover`, the shown size's `filterName`.
    ///
    /// Both filters change their caps in "delayed" mode: they accept the previous caps until
    /// the element before them has renegotiated. In the default mode a frame the scaler had
    /// already negotiated for the old size met the new caps and the branch stopped,
    /// not-negotiated — within a few dozen changes when a window is resized quickly
    /// (`DisplaySizedVideo_Tests`), and the stream feeding the branch (a camera behind a tee)
    /// stopped with it.
    ///
    /// `beforeConversion` (a gst-launch fragment ending in "! ") works on the shown pixels
    /// only, in the source's own format: the lobby's mirror.
    static func description(filterName: String, defaultSize: VideoSize, beforeConversion: String = "") -> String {
        "videoscale ! capsfilter name=\(filterName)-cover caps-change-mode=delayed caps=\"\(caps(defaultSize))\" ! "
            + "videocrop left=-1 right=-1 top=-1 bottom=-1 ! capsfilter name=\(filterName) caps-change-mode=delayed caps=\"\(caps(defaultSize))\" ! "
            + "\(beforeConversion)videoconvert ! video/x-raw,format=BGRA"
    }

    /// - Parameters:
    ///   - sourceSize: the size the picture arrives at before scaling (a decoder's output), read
    ///     at each change; nil before it is known, when `defaultSize`'s shape is assumed.
    init(pipeline: MediaPipeline, filterName: String, defaultSize: VideoSize, sourceSize: @escaping @MainActor () -> VideoSize?) {
        self.pipeline = pipeline
        self.filterName = filterName
        self.defaultSize = defaultSize
        self.sourceSize = sourceSize
        requested = (defaultSize, defaultSize)
        coverSet = defaultSize
        shownSet = defaultSize
    }

    isolated deinit { growthCheck?.cancel() }

    /// The size frames are handed over at now.
    var outputSize: VideoSize { Self.sizes(source: sourceSize() ?? defaultSize, display: displaySize, defaultSize: defaultSize).shown }

    /// The scaled (cover) size and the shown size for a `source` picture in a `display` view.
    nonisolated static func sizes(source: VideoSize, display: VideoSize?, defaultSize: VideoSize) -> (cover: VideoSize, shown: VideoSize) {
        guard let display else { return (defaultSize, defaultSize) }
        // The view itself, within what a screen needs (a huge window gains nothing); the cover
        // may then exceed that limit on its overflowing side, or the crop could not fill it.
        let shown = VideoViewport.coverSize(of: display, in: display)
        let cover = VideoViewport.coverSize(of: source, in: shown, limit: VideoSize(width: .max, height: .max))
        return (cover, shown)
    }

    /// Sets the filters' caps for the current sizes, if they changed (the source's shape may
    /// have: call it when the received size may have changed). New caps on a capsfilter make
    /// the elements before it renegotiate with the next frame; nothing stops.
    ///
    /// The crop can only cut: a frame still scaled to the old cover must never meet a shown
    /// size larger than it (the branch would stop, not-negotiated). So a shown size that
    /// shrinks is set at once, and one that grows only once the scaler's output is the new
    /// cover (looked at every 50 ms).
    func apply() {
        let next = Self.sizes(source: sourceSize() ?? defaultSize, display: displaySize, defaultSize: defaultSize)
        guard next != requested else { return }
        requested = next
        setShown(VideoSize(width: min(shownSet.width, next.shown.width), height: min(shownSet.height, next.shown.height)))
        if next.cover != coverSet {
            coverSet = next.cover
            pipeline.set("caps", Self.caps(next.cover), onElement: "\(filterName)-cover")
        }
        growWhenScaled()
    }

    private func growWhenScaled() {
        growthCheck?.cancel()
        growthCheck = nil
        guard shownSet != requested.shown else { return }
        if let scaled = pipeline.videoSize(ofElement: "\(filterName)-cover"), VideoSize(width: scaled.width, height: scaled.height) == requested.cover {
            return setShown(requested.shown)
        }
        growthCheck = RepeatingTimer(interval: 0.05) { [weak self] in self?.growWhenScaled() }
    }

    private func setShown(_ size: VideoSize) {
        guard size != shownSet else { return }
        shownSet = size
        pipeline.set("caps", Self.caps(size), onElement: filterName)
    }

    private static func caps(_ size: VideoSize) -> String {
        "video/x-raw,width=\(size.width),height=\(size.height),pixel-aspect-ratio=1/1"
    }
}
