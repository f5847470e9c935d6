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

    func test_leadAt33fps_frameHeldForItsNextFrame_evenALateOne() {
        var pacing = FramePacing()
        for frame in 0..<20 { pacing.leadFrameShown(at: 10 + Double(frame) * 0.03) }
        guard case .hold(let wait) = pacing.decision(forFrameAt: 10.58) else { return XCTFail("not held") }
        // The lead's next frame is due 0.03 s after its last (10.57): met, with room for lateness.
        XCTAssertEqual(wait, 0.075, accuracy: 0.001)
    }

    func test_leadAt16fps_theWaitIsCapped() {
        var pacing = FramePacing()
        for frame in 0..<10 { pacing.leadFrameShown(at: 10 + Double(frame) * 0.06) }
        XCTAssertEqual(pacing.decision(forFrameAt: 10.55), .hold(atMost: FramePacing.longestWait))
    }

    func test_leadUnder15fps_framesDrawnAtOnce_notHeldToItsRate() {
        var pacing = FramePacing()
        for frame in 0..<10 { pacing.leadFrameShown(at: 10 + Double(frame) * 0.1) }
        XCTAssertEqual(pacing.decision(forFrameAt: 10.92), .drawNow)
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

    func test_lead_isTheFeedWithTheMostFrames_andChangesOnlyForOneClearlyAhead() {
        XCTAssertNil(FramePacing.lead(current: nil, framesLastSecond: [:]))
        XCTAssertEqual(FramePacing.lead(current: nil, framesLastSecond: ["bob": 5, "carol": 30]), "carol")
        // A slow lead (a poor link) gives way: nobody's video waits on it.
        XCTAssertEqual(FramePacing.lead(current: "bob", framesLastSecond: ["bob": 5, "carol": 30]), "carol")
        // A second's jitter does not move it.
        XCTAssertEqual(FramePacing.lead(current: "bob", framesLastSecond: ["bob": 29, "carol": 31]), "bob")
        // A lead that showed nothing (its tile left the view) is replaced.
        XCTAssertEqual(FramePacing.lead(current: "dave", framesLastSecond: ["bob": 29, "carol": 31]), "carol")
    }
}
