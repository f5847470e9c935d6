import ConfabCore
import GLibBridge

/// The lobby's camera preview: the chosen camera, mirrored, scaled in GStreamer to the size
/// shown and delivered to the main loop frame by frame (never queued: see VideoFrameMailbox).
@MainActor
public final class CameraPreview: CameraPreviewSource {
    /// Pixel size the preview is scaled to before it reaches GTK (scaling there costs far more).
    public struct Size: Equatable, Sendable {
        public let width: Int
        public let height: Int
        public init(width: Int, height: Int) { self.width = width; self.height = height }
        public static let standard = Size(width: 640, height: 360)
    }

    private let devices: GStreamerDeviceSource
    private let size: Size
    private var pipeline: MediaPipeline?
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
        // Mirrored, as people expect to see themselves (what others receive is not).
        let processing = "\(decode)videoconvert ! videoflip video-direction=horiz ! videoscale ! "
            + "video/x-raw,format=BGRA,width=\(size.width),height=\(size.height),pixel-aspect-ratio=1/1 ! "
            + "appsink name=frames max-buffers=1 drop=true sync=true enable-last-sample=false"
        do {
            let pipeline = try MediaPipeline(source: source, processing: processing)
            pipeline.receiveVideoFrames(fromAppSink: "frames") { [weak self] frame in
                guard let self else { return }
                self.framesReceived += 1
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
    }
}
