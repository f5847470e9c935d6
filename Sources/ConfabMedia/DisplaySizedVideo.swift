import ConfabCore
import GLibBridge

/// The end of a video branch that hands frames to the UI: converted and scaled in one pass
/// (`videoconvertscale`) to the size of the view that shows them, and renegotiated when that
/// view is resized (issue 15).
///
/// Before, remote frames were converted to BGRA at 640x360 whatever the tile, and GTK scaled
/// each of them again on the main thread (the cairo renderer resamples every frame); the
/// profile of a call put most of the app's CPU there. Scaled here, on the streaming thread,
/// a frame reaches GTK at one frame pixel per screen pixel and is only copied.
@MainActor
final class DisplaySizedVideo {
    private let pipeline: MediaPipeline
    private let filterName: String
    private let format: String?
    private let defaultSize: VideoSize
    private let sourceSize: @MainActor () -> VideoSize?
    private var appliedCaps: String?

    /// The size of the view that shows the frames (device pixels); nil until one is known,
    /// when frames come at `defaultSize`.
    var displaySize: VideoSize? {
        didSet { if displaySize != oldValue { apply() } }
    }

    /// The description of the branch's end: `capsfilter` called `filterName`, at
    /// `defaultSize` until told otherwise. `format` nil leaves the format to what follows.
    static func description(filterName: String, format: String?, defaultSize: VideoSize) -> String {
        "videoconvertscale ! capsfilter name=\(filterName) caps=\"\(caps(defaultSize, format: format))\""
    }

    /// - Parameters:
    ///   - sourceSize: the size the picture arrives at before scaling (a decoder's output), read
    ///     at each change; nil before it is known, when `defaultSize`'s shape is assumed.
    init(pipeline: MediaPipeline, filterName: String, format: String?, defaultSize: VideoSize,
         sourceSize: @escaping @MainActor () -> VideoSize?) {
        self.pipeline = pipeline
        self.filterName = filterName
        self.format = format
        self.defaultSize = defaultSize
        self.sourceSize = sourceSize
        appliedCaps = Self.caps(defaultSize, format: format)
    }

    /// The size frames are scaled to now.
    var outputSize: VideoSize {
        guard let displaySize else { return defaultSize }
        return VideoViewport.coverSize(of: sourceSize() ?? defaultSize, in: displaySize)
    }

    /// Sets the filter's caps for the current sizes, if they changed (the source's shape may
    /// have: call it when the received size may have changed). A new caps on a capsfilter
    /// makes the scaler upstream renegotiate with the next frame; nothing stops.
    func apply() {
        let caps = Self.caps(outputSize, format: format)
        guard caps != appliedCaps else { return }
        appliedCaps = caps
        pipeline.set("caps", caps, onElement: filterName)
    }

    private static func caps(_ size: VideoSize, format: String?) -> String {
        "video/x-raw\(format.map { ",format=\($0)" } ?? ""),width=\(size.width),height=\(size.height),pixel-aspect-ratio=1/1"
    }
}
