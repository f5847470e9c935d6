/// One way a camera can give its pictures, as the camera itself lists them (a V4L2 device's
/// formats, sizes and frame rates).
///
/// A camera left to choose opens in its largest mode: GStreamer 1.22's v4l2src prefers 3840x2160
/// at 120 fps when nothing after it says otherwise, and a decoder (for MJPEG cameras) says
/// nothing. A 1080p webcam was then captured, and its JPEG decoded, at 1080p thirty times a
/// second, only to be scaled down to 640x360 — where a browser opens the camera in the mode
/// closest to what it will send.
public struct CameraMode: Equatable, Sendable, CustomStringConvertible {
    public enum Encoding: Equatable, Sendable {
        /// Uncompressed (YUY2, NV12…): nothing to decode.
        case raw
        /// MJPEG: each frame is decoded, at the mode's size.
        case jpeg
    }

    public let encoding: Encoding
    public let size: VideoSize
    /// The highest frame rate the camera gives in this mode.
    public let maximumFramerate: Double

    public init(encoding: Encoding, size: VideoSize, maximumFramerate: Double) {
        self.encoding = encoding
        self.size = size
        self.maximumFramerate = maximumFramerate
    }

    public var description: String {
        "\(encoding == .raw ? "raw" : "jpeg") \(size.width)x\(size.height)@\(maximumFramerate)"
    }

    /// The mode to open a camera in when its pictures are needed at `wanted` and `framerate`:
    /// the smallest that covers `wanted` (the tiles crop, so a 4:3 mode covers a 16:9 picture
    /// of its width) at that rate, uncompressed before MJPEG (a webcam's 640x480 YUY2 costs
    /// nothing to decode; its raw modes above that are slow on USB 2, and then not fast
    /// enough); a camera too small for it gives its largest. Rates within 5 % count (29.97 fps
    /// is 30). Nil when the camera lists no modes of fixed sizes (then it chooses).
    public static func best(for wanted: VideoSize, framerate: Int, among modes: [CameraMode]) -> CameraMode? {
        let fastEnough = modes.filter { $0.maximumFramerate >= Double(framerate) * 0.95 }
        let candidates = fastEnough.isEmpty ? modes : fastEnough
        let covering = candidates.filter { $0.size.width >= wanted.width && $0.size.height >= wanted.height }
        let pixels = { (mode: CameraMode) in mode.size.width * mode.size.height }
        if !covering.isEmpty {
            let raw = covering.filter { $0.encoding == .raw }
            return (raw.isEmpty ? covering : raw).min { pixels($0) < pixels($1) }
        }
        return candidates.max { a, b in pixels(a) != pixels(b) ? pixels(a) < pixels(b) : a.encoding == .jpeg && b.encoding == .raw }
    }
}
