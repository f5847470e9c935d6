import ConfabCore
import GLibBridge

/// Draws a call's video frames in as few paints as the lead feed allows (`FramePacing`,
/// issue 15): the lead's frames are drawn as they come; another picture's frame that arrives
/// between them waits for the lead's next one, and all the pictures with a new frame are
/// invalidated in that one pass of the main loop, so GTK paints the window once for them.
@MainActor
final class VideoPaintPacer {
    /// A picture in the call: ours (the self-view) or a participant's tile.
    enum Picture: Hashable {
        case ours
        case participant(session: String)
    }

    private let draw: @MainActor (Picture, VideoFrame) -> Void
    private var pacing = FramePacing()
    /// The newest frame not drawn yet, of each picture that waits.
    private var held: [Picture: VideoFrame] = [:]
    /// Draws the held frames if the lead's next frame does not come in time.
    private var deadline: RepeatingTimer?

    /// The participant whose frames set the pace (the one with the most frames a second);
    /// nil, until someone's frames come: every frame is drawn as it comes.
    private(set) var lead: String? {
        didSet {
            guard lead != oldValue else { return }
            pacing.leadChanged()
            drawHeld()
        }
    }
    /// Frames of each participant since `countingSince`, to choose the lead once a second.
    private var framesCounted: [String: Int] = [:]
    private var countingSince = monotonicSeconds()

    /// - Parameter draw: shows a frame in a picture.
    init(draw: @escaping @MainActor (Picture, VideoFrame) -> Void) {
        self.draw = draw
    }

    /// A frame for `picture` reached the main thread.
    func offer(_ frame: VideoFrame, for picture: Picture) {
        let now = monotonicSeconds()
        if case .participant(let session) = picture {
            countFrame(of: session, at: now)
            if session == lead {
                draw(picture, frame)
                pacing.leadFrameShown(at: now)
                return drawHeld()
            }
        }
        switch pacing.decision(forFrameAt: now) {
        case .drawNow:
            held[picture] = nil
            draw(picture, frame)
        case .hold(let atMost):
            held[picture] = frame
            // The wait counts from the first frame held: a newer one takes its place, not its time.
            if deadline == nil {
                deadline = RepeatingTimer(interval: atMost) { [weak self] in self?.drawHeld() }
            }
        }
    }

    /// `picture` is not shown any more: a frame it held is dropped, and if it led, the next
    /// participant's frame leads.
    func forget(_ picture: Picture) {
        held[picture] = nil
        guard case .participant(let session) = picture else { return }
        framesCounted[session] = nil
        if session == lead { lead = nil }
    }

    private func countFrame(of session: String, at now: Double) {
        framesCounted[session, default: 0] += 1
        if lead == nil {
            lead = session
        } else if now - countingSince >= 1 {
            lead = FramePacing.lead(current: lead, framesLastSecond: framesCounted)
            framesCounted = [:]
            countingSince = now
        }
    }

    private func drawHeld() {
        deadline?.cancel()
        deadline = nil
        let frames = held
        held = [:]
        for (picture, frame) in frames { draw(picture, frame) }
    }
}
