import ConfabCore
import GLibBridge

extension VideoFrameScaler.Size {
    init(_ size: VideoSize) { self.init(width: size.width, height: size.height) }

    /// The size to make frames at for a view of `display` device pixels: the view's own,
    /// within what a screen needs (a huge window gains nothing).
    static func shown(in display: VideoSize) -> Self { Self(VideoViewport.coverSize(of: display, in: display)) }
}
