import ConfabCore
import XCTest

/// The self-view's frames wait for the others' next frame while their video runs, and only then.
final class SelfViewPacing_Tests: XCTestCase {
    func test_nobodyElsesVideo_cameraFrameDrawnAtOnce() {
        XCTAssertEqual(SelfViewPacing().decision(forCameraFrameAt: 10), .drawNow)
    }

    func test_othersVideoJustStarted_cameraFrameHeldLongerThanA30fpsInterval() {
        var pacing = SelfViewPacing()
        pacing.othersFrameShown(at: 10)
        XCTAssertEqual(pacing.decision(forCameraFrameAt: 10.012), .hold(atMost: SelfViewPacing.firstWait))
        XCTAssertGreaterThan(SelfViewPacing.firstWait, 1.0 / 30)
    }

    func test_othersAt20fps_cameraFrameHeldForTheirNextFrame() {
        var pacing = SelfViewPacing()
        for frame in 0..<20 { pacing.othersFrameShown(at: 10 + Double(frame) * 0.05) }
        guard case .hold(let wait) = pacing.decision(forCameraFrameAt: 10.96) else { return XCTFail("not held") }
        // Their next frame is due 0.05 s after their last (10.95): met, with room for lateness.
        XCTAssertEqual(wait, 0.075, accuracy: 0.001)
    }

    func test_othersSlow_theWaitIsCapped() {
        var pacing = SelfViewPacing()
        for frame in 0..<10 { pacing.othersFrameShown(at: 10 + Double(frame) * 0.14) }
        XCTAssertEqual(pacing.decision(forCameraFrameAt: 11.27), .hold(atMost: SelfViewPacing.longestWait))
    }

    func test_othersVideoStalled_cameraFrameDrawnAtOnce() {
        var pacing = SelfViewPacing()
        pacing.othersFrameShown(at: 10)
        XCTAssertEqual(pacing.decision(forCameraFrameAt: 10 + SelfViewPacing.othersVideoRunningWithin + 0.01), .drawNow)
    }

    func test_othersVideoStopped_cameraFrameDrawnAtOnce() {
        var pacing = SelfViewPacing()
        pacing.othersFrameShown(at: 10)
        pacing.othersVideoStopped()
        XCTAssertEqual(pacing.decision(forCameraFrameAt: 10.01), .drawNow)
    }
}
