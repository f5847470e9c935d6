import ConfabCore
import GLibBridge

/// The lobby's camera preview: the chosen camera, made into exactly the pixels of the picture
/// that shows it, mirrored (`setDisplaySize`; see VideoFrameScaler), and delivered to the main
/// loop frame by frame (never queued: see VideoFrameMailbox).
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
    /// Cuts, scales, mirrors and converts each captured frame for the picture; lives as long
    /// as the preview (a restarted camera keeps the picture's size).
    private let scaler = VideoFrameScaler(mirrored: true)
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
        // Opened in the mode that covers the preview's capture size (not the camera's largest).
        let inMode = CameraCapture.mode(for: source, covering: VideoSize(width: size.width, height: size.height), framerate: 30)
            .map { "capsfilter caps=\"\($0.caps)\" ! " } ?? ""
        let decode = camera.isTest ? "" : "decodebin ! "
        // Captured at `size` in I420; the scaler then cuts the picture's shape, scales it to the
        // picture and only then mirrors it — as people expect to see themselves; what others
        // receive is not — working on the pixels shown, which GTK only copies (bench-lobby,
        // 720p camera: converting and mirroring the whole frame, then scaling it in GTK, cost
        // 17.7 % of a core against 13 % for scaling first in GStreamer).
        let processing = "\(inMode)\(decode)videoconvert ! videoscale ! capsfilter caps=\"video/x-raw,format=I420,width=\(size.width),"
            + "height=\(size.height),pixel-aspect-ratio=1/1\" ! appsink name=frames max-buffers=1 drop=true sync=true enable-last-sample=false"
        do {
            let pipeline = try MediaPipeline(source: source, processing: processing)
            pipeline.receiveVideoFrames(fromAppSink: "frames", scaledBy: scaler) { [weak self] frame in
                guard let self else { return }
                self.framesReceived += 1
                // The camera is up: the plugins a call loads are loaded now, before Join. Loaded
                // as the app started, they held the first picture back (bench-lobby: 0.21 →
                // 0.37 s); without a camera they load as the join starts (CallMediaSession).
                if self.framesReceived == 1 { CallMediaWarmUp.start() }
                self.onFrame?(frame)
            }
            pipeline.watchBus { [weak self] message in
                if case .error(let text, _, _, _) = message {
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
        guard let pipeline else { return }
        pipeline.stop()
        self.pipeline = nil
        // Stopped for a call (or another window): the scaler's megabytes are not needed until
        // the preview starts again.
        scaler.releaseMemory()
    }

    /// The picture showing the preview is `size` device pixels now: frames come at that size
    /// from the next one on (and from the first, for a preview started later).
    public func setDisplaySize(_ size: VideoSize?) {
        scaler.outputSize = size.map(VideoFrameScaler.Size.init)
    }
}
