import ConfabCore
import GLibBridge

/// Draws our camera's frames in the self-view in the same paints as the others' video
/// (`SelfViewPacing`, issue 15): a camera frame that arrives between their frames waits for
/// the next one, and both pictures are invalidated in one pass of the main loop, so GTK paints
/// the window once for the two.
@MainActor
final class SelfViewPainter {
    private let draw: @MainActor (VideoFrame) -> Void
    private var pacing = SelfViewPacing()
    /// The newest camera frame not drawn yet.
    private var held: VideoFrame?
    /// Draws the held frame if the others' next frame does not come in time.
    private var deadline: RepeatingTimer?

    /// - Parameter draw: shows a camera frame in the self-view.
    init(draw: @escaping @MainActor (VideoFrame) -> Void) {
        self.draw = draw
    }

    /// A camera frame reached the main thread.
    func offer(_ frame: VideoFrame) {
        switch pacing.decision(forCameraFrameAt: monotonicSeconds()) {
        case .drawNow:
            held = nil
            stopDeadline()
            draw(frame)
        case .hold(let atMost):
            held = frame
            // The wait counts from the first frame held: a newer one takes its place, not its time.
            if deadline == nil {
                deadline = RepeatingTimer(interval: atMost) { [weak self] in self?.drawHeld() }
            }
        }
    }

    /// A frame of someone else's video was just shown: the held camera frame goes with it.
    func othersFrameShown() {
        pacing.othersFrameShown(at: monotonicSeconds())
        drawHeld()
    }

    /// Nobody else's video is shown any more: camera frames are drawn as they come.
    func othersVideoStopped() {
        pacing.othersVideoStopped()
        drawHeld()
    }

    /// The self-view is not shown: a held frame is dropped.
    func stop() {
        held = nil
        stopDeadline()
    }

    private func drawHeld() {
        stopDeadline()
        guard let frame = held else { return }
        held = nil
        draw(frame)
    }

    private func stopDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}
