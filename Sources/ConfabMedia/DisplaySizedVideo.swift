import ConfabCore
import GLibBridge

/// The end of a video branch that hands frames to the UI at exactly the pixels of the view
/// that shows them (issue 15): scaled to cover the view, the overflow cut off evenly
/// (`videocrop` in its automatic mode, centred), and only what is shown converted to BGRA.
/// The view is followed when it is resized.
///
/// A view smaller than the picture (a grid tile, a thumbnail) has it scaled down in the
/// decoder's own YUV, then cropped, then converted: the fewest pixels at every step. A view
/// larger than the picture (one person across a window) has it cropped to the view's shape at
/// the picture's own size, converted, and only then scaled up, in BGRA: scaling I420 up is
/// the costly step, and converting first leaves the scaler the picture's pixels to read, not
/// the view's. Counted with callgrind (gst-launch, a 640x360 picture, instructions a frame):
/// for an 862x485 view (a one-to-one call in the default window) 13.1 M scaled up in I420,
/// cropped and converted, 10.1 M converted then scaled up in BGRA; for a 430x242 tile 4.2 M
/// scaled down in I420 and converted, 5.1 M the other way round.
///
/// Measured before (bench-media --perf, and gst-launch over 900 frames of a 640x360 camera for
/// a 425x505 grid tile): scaling and converting in one `videoconvertscale` pass to the cover
/// size cost 1.5 ms a frame, and GTK then copied twice the pixels it showed; scaling in I420,
/// cropping, then converting the tile's pixels costs 0.9 ms, and GTK copies only what it shows.
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
    private var requested: Plan
    private var coverSet: VideoSize
    private var keptSet: VideoSize
    private var shownSet: VideoSize
    /// Waits for the scaler to make frames at a larger cover before the kept size grows.
    private var growthCheck: RepeatingTimer?

    /// The size of the view that shows the frames (device pixels); nil until one is known,
    /// when frames come at `defaultSize`.
    var displaySize: VideoSize? {
        didSet { if displaySize != oldValue { apply() } }
    }

    /// The sizes the branch's filters are set to for one view.
    struct Plan: Equatable {
        /// The YUV scaler's output: the picture scaled to cover the view, or its own size when
        /// the view is larger.
        var cover: VideoSize
        /// The part of `cover` kept by the crop and converted to BGRA.
        var kept: VideoSize
        /// What is handed over: the view's pixels (`kept`, scaled up in BGRA when smaller).
        var shown: VideoSize

        static func unscaled(_ size: VideoSize) -> Plan { Plan(cover: size, kept: size, shown: size) }
    }

    /// The description of the branch's end, BGRA at `defaultSize` until told otherwise: its
    /// YUV scaler's caps are `filterName-cover`, the crop's `filterName-kept`, the size handed
    /// over `filterName`.
    ///
    /// Both filters change their caps in "delayed" mode: they accept the previous caps until
    /// the element before them has renegotiated. In the default mode a frame the scaler had
    /// already negotiated for the old size met the new caps and the branch stopped,
    /// not-negotiated — within a few dozen changes when a window is resized quickly
    /// (`DisplaySizedVideo_Tests`), and the stream feeding the branch (a camera behind a tee)
    /// stopped with it.
    ///
    /// `beforeConversion` (a gst-launch fragment ending in "! ") works on the kept pixels
    /// only, in the source's own format: the lobby's mirror.
    static func description(filterName: String, defaultSize: VideoSize, beforeConversion: String = "") -> String {
        "videoscale ! capsfilter name=\(filterName)-cover caps-change-mode=delayed caps=\"\(caps(defaultSize))\" ! "
            + "videocrop left=-1 right=-1 top=-1 bottom=-1 ! capsfilter name=\(filterName)-kept caps-change-mode=delayed caps=\"\(caps(defaultSize))\" ! "
            + "\(beforeConversion)videoconvert ! video/x-raw,format=BGRA ! "
            // The kept part has the view's shape to within a pixel: stretched, not bordered.
            + "videoscale add-borders=false ! capsfilter name=\(filterName) caps-change-mode=delayed caps=\"\(caps(defaultSize, format: "BGRA"))\""
    }

    /// - Parameters:
    ///   - sourceSize: the size the picture arrives at before scaling (a decoder's output), read
    ///     at each change; nil before it is known, when `defaultSize`'s shape is assumed.
    init(pipeline: MediaPipeline, filterName: String, defaultSize: VideoSize, sourceSize: @escaping @MainActor () -> VideoSize?) {
        self.pipeline = pipeline
        self.filterName = filterName
        self.defaultSize = defaultSize
        self.sourceSize = sourceSize
        requested = .unscaled(defaultSize)
        coverSet = defaultSize
        keptSet = defaultSize
        shownSet = defaultSize
    }

    isolated deinit { growthCheck?.cancel() }

    /// The size frames are handed over at now.
    var outputSize: VideoSize { Self.sizes(source: sourceSize() ?? defaultSize, display: displaySize, defaultSize: defaultSize).shown }

    /// The filters' sizes for a `source` picture in a `display` view.
    nonisolated static func sizes(source: VideoSize, display: VideoSize?, defaultSize: VideoSize) -> Plan {
        guard let display else { return .unscaled(defaultSize) }
        // The view itself, within what a screen needs (a huge window gains nothing); the cover
        // may then exceed that limit on its overflowing side, or the crop could not fill it.
        let shown = VideoViewport.coverSize(of: display, in: display)
        let cover = VideoViewport.coverSize(of: source, in: shown, limit: VideoSize(width: .max, height: .max))
        guard cover.width > source.width || cover.height > source.height else { return Plan(cover: cover, kept: shown, shown: shown) }
        // Larger than the picture: keep the view's shape at the picture's own scale.
        // (The exact scale that covers the view, not the cover's, rounded for an even centring.)
        let scale = max(Double(shown.width) / Double(source.width), Double(shown.height) / Double(source.height))
        let kept = VideoSize(width: min(source.width, max(2, Int((Double(shown.width) / scale).rounded()))),
                             height: min(source.height, max(2, Int((Double(shown.height) / scale).rounded()))))
        return Plan(cover: source, kept: kept, shown: shown)
    }

    /// Sets the filters' caps for the current sizes, if they changed (the source's shape may
    /// have: call it when the received size may have changed). New caps on a capsfilter make
    /// the elements before it renegotiate with the next frame; nothing stops.
    ///
    /// The crop can only cut: a frame still scaled to the old cover must never meet a kept
    /// size larger than it (the branch would stop, not-negotiated). So a kept size that
    /// shrinks is set at once, and one that grows only once the scaler's output is the new
    /// cover (looked at every 50 ms).
    func apply() {
        let next = Self.sizes(source: sourceSize() ?? defaultSize, display: displaySize, defaultSize: defaultSize)
        guard next != requested else { return }
        requested = next
        setKept(VideoSize(width: min(keptSet.width, next.kept.width), height: min(keptSet.height, next.kept.height)))
        if next.cover != coverSet {
            coverSet = next.cover
            pipeline.set("caps", Self.caps(next.cover), onElement: "\(filterName)-cover")
        }
        // The BGRA scaler makes any size from any: this one can change at once.
        if next.shown != shownSet {
            shownSet = next.shown
            pipeline.set("caps", Self.caps(next.shown, format: "BGRA"), onElement: filterName)
        }
        growWhenScaled()
    }

    private func growWhenScaled() {
        growthCheck?.cancel()
        growthCheck = nil
        guard keptSet != requested.kept else { return }
        if let scaled = pipeline.videoSize(ofElement: "\(filterName)-cover"), VideoSize(width: scaled.width, height: scaled.height) == requested.cover {
            return setKept(requested.kept)
        }
        growthCheck = RepeatingTimer(interval: 0.05) { [weak self] in self?.growWhenScaled() }
    }

    private func setKept(_ size: VideoSize) {
        guard size != keptSet else { return }
        keptSet = size
        pipeline.set("caps", Self.caps(size), onElement: "\(filterName)-kept")
    }

    private static func caps(_ size: VideoSize, format: String? = nil) -> String {
        "video/x-raw,\(format.map { "format=\($0)," } ?? "")width=\(size.width),height=\(size.height),pixel-aspect-ratio=1/1"
    }
}
