import ConfabCore
import GLibBridge

/// How a camera is opened: in the mode closest to what is needed (`CameraMode.best`), where the
/// camera lists its modes.
enum CameraCapture {
    /// The camera's modes, as the core knows them (others than raw video and JPEG are left out).
    static func modes(of source: MediaPipeline.Source) -> [CameraMode] {
        source.videoModes.compactMap { mode in
            let encoding: CameraMode.Encoding
            switch mode.mediaType {
            case "video/x-raw": encoding = .raw
            case "image/jpeg": encoding = .jpeg
            default: return nil
            }
            return CameraMode(encoding: encoding, size: VideoSize(width: mode.width, height: mode.height), maximumFramerate: mode.maximumFramerate)
        }
    }

    /// The mode to open `source` in when `wanted` at `framerate` is needed, and its caps; nil
    /// for a source that lists no fixed modes (a test source makes any size). The frame rate is
    /// left to the camera within the mode (its own list may say 30000/1001); videorate after it
    /// makes the rate used.
    static func mode(for source: MediaPipeline.Source, covering wanted: VideoSize, framerate: Int) -> (mode: CameraMode, caps: String)? {
        CameraMode.best(for: wanted, framerate: framerate, among: modes(of: source)).map { ($0, caps(for: $0)) }
    }

    static func caps(for mode: CameraMode) -> String {
        let media = mode.encoding == .raw ? "video/x-raw" : "image/jpeg"
        return "\(media),width=\(mode.size.width),height=\(mode.size.height)"
    }
}
