import ConfabCore
import XCTest

/// Frames other than the lead's wait for the lead's next frame while its video runs, and only then.
final class FramePacing_Tests: XCTestCase {
    func test_noLeadVideo_frameDrawnAtOnce() {
        XCTAssertEqual(FramePacing().decision(forFrameAt: 10), .drawNow)
    }

    func test_leadJustStarted_frameHeldLongerThanA30fpsInterval() {
        var pacing = FramePacing()
        pacing.leadFrameShown(at: 10)
        XCTAssertEqual(pacing.decision(forFrameAt: 10.012), .hold(atMost: FramePacing.firstWait))
        XCTAssertGreaterThan(FramePacing.firstWait, 1.0 / 30)
    }

    func test_leadAt20fps_frameHeldForItsNextFrame() {
        var pacing = FramePacing()
        for frame in 0..<20 { pacing.leadFrameShown(at: 10 + Double(frame) * 0.05) }
        guard case .hold(let wait) = pacing.decision(forFrameAt: 10.96) else { return XCTFail("not held") }
        // The lead's next frame is due 0.05 s after its last (10.95): met, with room for lateness.
        XCTAssertEqual(wait, 0.075, accuracy: 0.001)
    }

    func test_leadSlow_theWaitIsCapped() {
        var pacing = FramePacing()
        for frame in 0..<10 { pacing.leadFrameShown(at: 10 + Double(frame) * 0.14) }
        XCTAssertEqual(pacing.decision(forFrameAt: 11.27), .hold(atMost: FramePacing.longestWait))
    }

    func test_leadStalled_frameDrawnAtOnce() {
        var pacing = FramePacing()
        pacing.leadFrameShown(at: 10)
        XCTAssertEqual(pacing.decision(forFrameAt: 10 + FramePacing.leadRunningWithin + 0.01), .drawNow)
    }

    func test_leadChanged_framesDrawnAtOnceUntilTheNewLeadsFrames() {
        var pacing = FramePacing()
        pacing.leadFrameShown(at: 10)
        pacing.leadChanged()
        XCTAssertEqual(pacing.decision(forFrameAt: 10.01), .drawNow)
        pacing.leadFrameShown(at: 10.02)
        XCTAssertEqual(pacing.decision(forFrameAt: 10.03), .hold(atMost: FramePacing.firstWait))
    }
}
