/// When a call's video pictures draw their frames: with the lead picture's, not between them
/// (issue 15).
///
/// The cameras in a call are not in step: in a one-to-one call at 30 fps each, our
/// self-view's frames fell between bob's, and the window painted 60 times a second — every
/// paint of GTK 4.8's cairo renderer on X11 allocates, clears, composites and uploads an
/// image of what changed, on the main thread; with three others it was the same 60, the most
/// GTK paints. One feed leads (the one with the most frames a second, `lead(current:framesLastSecond:)`):
/// its frames are drawn as they come. Every other picture (ours, the other tiles) holds its
/// newest frame until the lead's next one, and all are drawn in that one paint: half the
/// paints, each picture still at its own rate (at the lead's when that is lower), a frame
/// drawn a few tens of milliseconds late at most. With the lead's video not running (its
/// camera off, a stalled feed, nobody else in the call) or slower than 15 fps, every frame
/// is drawn at once.
public struct FramePacing: Sendable {
    /// The lead's video is running while one of its frames was shown this recently (s).
    public static let leadRunningWithin = 0.15
    /// The longest a frame waits for the lead's next frame (s): a lead at 15 fps or more comes sooner.
    public static let longestWait = 0.1
    /// The wait before the spacing of the lead's frames is known (s): more than a frame
    /// interval at 30 fps.
    public static let firstWait = 0.05
    /// The lead paces the others only while its frames come this often at least (s apart):
    /// fewer paints than that cost little, and the others are not held to a slow feed's rate.
    public static let slowestLeadSpacing = 1.0 / 15
    /// Frames a second by which another feed must beat the lead to take over.
    public static let leadMargin = 3

    /// What to do with a frame that is not the lead's.
    public enum Decision: Equatable, Sendable {
        case drawNow
        /// Keep it (a newer frame of the same picture replaces it) and draw it with the lead's
        /// next frame, or after this many seconds if none comes.
        case hold(atMost: Double)
    }

    private var leadFrameShownAt: Double?
    /// The usual time between two of the lead's frames (smoothed).
    private var leadFrameSpacing: Double?

    public init() {}

    /// A frame of the lead was shown at `time` (monotonic seconds): held frames go into the
    /// same paint.
    public mutating func leadFrameShown(at time: Double) {
        if let last = leadFrameShownAt, case let gap = time - last, gap > 0, gap <= Self.leadRunningWithin {
            leadFrameSpacing = leadFrameSpacing.map { $0 * 0.8 + gap * 0.2 } ?? gap
        }
        leadFrameShownAt = time
    }

    /// Another feed leads now, or none: frames are drawn at once until its frames come.
    public mutating func leadChanged() {
        leadFrameShownAt = nil
        leadFrameSpacing = nil
    }

    /// The feed to lead from now, given how many frames each feed showed in the last second:
    /// the one with the most, so that nobody's video waits on a slower one. The lead changes
    /// only for a feed clearly ahead (`leadMargin` more), not at every second's jitter.
    public static func lead(current: String?, framesLastSecond: [String: Int]) -> String? {
        guard let fastest = framesLastSecond.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
        guard let current, let held = framesLastSecond[current] else { return fastest.key }
        return fastest.value > held + leadMargin ? fastest.key : current
    }

    /// For a frame (not the lead's) that reached the main thread at `time`.
    public func decision(forFrameAt time: Double) -> Decision {
        guard let shownAt = leadFrameShownAt, time - shownAt <= Self.leadRunningWithin,
              (leadFrameSpacing ?? 0) <= Self.slowestLeadSpacing else { return .drawNow }
        // Two and a half times the lead's usual spacing: its next frame is met even when it
        // comes late (a busy machine delivers frames in bursts); a steady lead comes far sooner.
        let wait = leadFrameSpacing.map { $0 * 2.5 } ?? Self.firstWait
        return .hold(atMost: min(wait, Self.longestWait))
    }
}
