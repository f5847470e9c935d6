import ConfabCore
import GLibBridge

/// The lobby's camera preview: the chosen camera, mirrored, scaled in GStreamer to exactly the
/// pixels of the picture that shows it (`setDisplaySize`; see DisplaySizedVideo) and delivered
/// to the main loop frame by frame (never queued: see VideoFrameMailbox).
@MainActor
public final class CameraPreview: CameraPreviewSource {
    /// The size the camera is captured at (frames come at this size until the picture's is known).
    public struct Size: Equatable, Sendable {
        public let width: Int
        public let height: Int
        public init(width: Int, height: Int) { self.width = width; self.height = height }
        public static let standard = Size(width: 640, height: 360)
    }

    private let devices: GStreamerDeviceSource
    private let size: Size
    private var pipeline: MediaPipeline?
    private var displaySized: DisplaySizedVideo?
    /// The picture's size in device pixels (nil: not laid out yet).
    private var displaySize: VideoSize?
    /// Who shows the frames (the lobby's picture); set by the view.
    public var onFrame: (@MainActor (VideoFrame) -> Void)?
    public private(set) var framesReceived = 0

    public init(devices: GStreamerDeviceSource, size: Size = .standard) {
        self.devices = devices
        self.size = size
    }

    public var isRunning: Bool { pipeline != nil }

    public func startPreview(_ camera: MediaDevice, onFailure: @escaping @MainActor (String) -> Void) {
        stopPreview()
        guard let source = devices.source(for: camera) else {
            onFailure("\(camera.name) is no longer connected.")
            return
        }
        // Real cameras may deliver MJPEG or raw video; decodebin takes either. Test sources are raw.
        let decode = camera.isTest ? "" : "decodebin ! "
        let captured = VideoSize(width: size.width, height: size.height)
        // Captured at `size`, then scaled (in the camera's own format) and cropped to the
        // picture, and only then mirrored — as people expect to see themselves; what others
        // receive is not — and converted for cairo: those steps work on the pixels shown, and
        // GTK only copies them (bench-lobby, 720p camera: 17.7 → 13 % of a core; converting
        // and mirroring the whole frame, then scaling it in GTK, cost the difference).
        let processing = "\(decode)videoconvert ! videoscale ! capsfilter caps=\"video/x-raw,width=\(size.width),height=\(size.height),"
            + "pixel-aspect-ratio=1/1\" ! "
            + DisplaySizedVideo.description(filterName: "preview-size", defaultSize: captured, beforeConversion: "videoflip video-direction=horiz ! ")
            + " ! appsink name=frames max-buffers=1 drop=true sync=true enable-last-sample=false"
        do {
            let pipeline = try MediaPipeline(source: source, processing: processing)
            let sized = DisplaySizedVideo(pipeline: pipeline, filterName: "preview-size", defaultSize: captured) { captured }
            sized.displaySize = displaySize
            displaySized = sized
            pipeline.receiveVideoFrames(fromAppSink: "frames") { [weak self] frame in
                guard let self else { return }
                self.framesReceived += 1
                // The camera is up: the plugins a call loads are loaded now, before Join. Loaded
                // as the app started, they held the first picture back (bench-lobby: 0.21 →
                // 0.37 s); without a camera they load as the join starts (CallMediaSession).
                if self.framesReceived == 1 { CallMediaWarmUp.start() }
                self.onFrame?(frame)
            }
            pipeline.watchBus { [weak self] message in
                if case .error(let text, _, _) = message {
                    self?.stopPreview()
                    onFailure("Camera stopped: \(text)")
                }
            }
            try pipeline.play()
            self.pipeline = pipeline
        } catch {
            onFailure("Can’t open \(camera.name): \(error)")
        }
    }

    public func stopPreview() {
        pipeline?.stop()
        pipeline = nil
        displaySized = nil
    }

    /// The picture showing the preview is `size` device pixels now: frames come at that size
    /// from the next one on (and from the first, for a preview started later).
    public func setDisplaySize(_ size: VideoSize?) {
        displaySize = size
        displaySized?.displaySize = size
    }
}
