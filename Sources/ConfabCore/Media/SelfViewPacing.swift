/// When the self-view draws a camera frame: with the others' video, not between its frames
/// (issue 15).
///
/// Our camera and the others' cameras are not in step: in a one-to-one call at 30 fps each,
/// the self-view's frames fell between bob's, and the window painted 60 times a second —
/// every paint of GTK 4.8's cairo renderer on X11 allocates, clears, composites and uploads
/// an image of what changed, on the main thread. Held until bob's next frame, a camera frame
/// is drawn in the same paint as his: half the paints, the self-view still at the camera's
/// rate (at bob's when his is lower), a few tens of milliseconds late — a mirror nobody
/// times. With nobody else's video running (alone, cameras off, a stalled feed), a frame is
/// drawn at once.
public struct SelfViewPacing: Sendable {
    /// The others' video is running while one of its frames was shown this recently (s).
    public static let othersVideoRunningWithin = 0.15
    /// The longest a camera frame waits for the others' next frame (s).
    public static let longestWait = 0.1
    /// The wait before the spacing of the others' frames is known (s): more than a frame
    /// interval at 30 fps.
    public static let firstWait = 0.05

    /// What to do with a camera frame.
    public enum Decision: Equatable, Sendable {
        case drawNow
        /// Keep it (a newer camera frame replaces it) and draw it with the others' next frame,
        /// or after this many seconds if none comes.
        case hold(atMost: Double)
    }

    private var othersFrameShownAt: Double?
    /// The usual time between two of the others' frames (smoothed; all feeds together).
    private var othersFrameSpacing: Double?

    public init() {}

    /// A frame of someone else's video was shown at `time` (monotonic seconds): a held
    /// camera frame goes into the same paint.
    public mutating func othersFrameShown(at time: Double) {
        if let last = othersFrameShownAt, case let gap = time - last, gap > 0, gap <= Self.othersVideoRunningWithin {
            othersFrameSpacing = othersFrameSpacing.map { $0 * 0.8 + gap * 0.2 } ?? gap
        }
        othersFrameShownAt = time
    }

    /// The others' video stopped being shown (their tiles left the view): camera frames are
    /// drawn at once again.
    public mutating func othersVideoStopped() {
        othersFrameShownAt = nil
        othersFrameSpacing = nil
    }

    /// For a camera frame that reached the main thread at `time`.
    public func decision(forCameraFrameAt time: Double) -> Decision {
        guard let shownAt = othersFrameShownAt, time - shownAt <= Self.othersVideoRunningWithin else { return .drawNow }
        // Half as long again as their usual spacing: their next frame, a little late, is met.
        let wait = othersFrameSpacing.map { $0 * 1.5 } ?? Self.firstWait
        return .hold(atMost: min(wait, Self.longestWait))
    }
}
