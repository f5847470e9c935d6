@testable import ConfabCore
import XCTest

/// A camera is opened in the mode closest to what is needed (issue 15), not in its largest.
final class CameraMode_Tests: XCTestCase {
    private func mode(_ encoding: CameraMode.Encoding, _ width: Int, _ height: Int, _ framerate: Double) -> CameraMode {
        CameraMode(encoding: encoding, size: VideoSize(width: width, height: height), maximumFramerate: framerate)
    }

    /// What a common 1080p USB webcam lists: MJPEG at every size at 30 fps, YUY2 fast only
    /// up to 640x480 (USB 2's bandwidth).
    private var webcam: [CameraMode] {
        [mode(.jpeg, 1920, 1080, 30), mode(.jpeg, 1280, 720, 30), mode(.jpeg, 640, 480, 30), mode(.jpeg, 640, 360, 30),
         mode(.jpeg, 320, 240, 30), mode(.raw, 1920, 1080, 5), mode(.raw, 1280, 720, 10), mode(.raw, 640, 480, 30),
         mode(.raw, 640, 360, 30), mode(.raw, 320, 240, 30)]
    }

    func test_360pNeeded_opensTheRaw360pMode_notTheLargest() {
        XCTAssertEqual(CameraMode.best(for: VideoSize(width: 640, height: 360), framerate: 30, among: webcam), mode(.raw, 640, 360, 30))
    }

    func test_720pNeeded_rawTooSlowThere_opensMJPEGAt720p() {
        XCTAssertEqual(CameraMode.best(for: VideoSize(width: 1280, height: 720), framerate: 30, among: webcam), mode(.jpeg, 1280, 720, 30))
    }

    func test_aSizeTheCameraDoesNotList_theSmallestCoveringIt_a4by3ModeCoversA16by9Picture() {
        let modes = [mode(.raw, 640, 480, 30), mode(.raw, 1280, 960, 30), mode(.raw, 320, 240, 30)]
        XCTAssertEqual(CameraMode.best(for: VideoSize(width: 480, height: 270), framerate: 30, among: modes), mode(.raw, 640, 480, 30))
    }

    func test_aCameraTooSmall_givesItsLargest() {
        let modes = [mode(.jpeg, 320, 240, 30), mode(.raw, 640, 480, 30), mode(.jpeg, 640, 480, 30)]
        XCTAssertEqual(CameraMode.best(for: VideoSize(width: 1280, height: 720), framerate: 30, among: modes), mode(.raw, 640, 480, 30))
    }

    func test_29point97CountsAs30_andACameraWithNothingFastEnough_isStillOpened() {
        let ntsc = [mode(.raw, 640, 480, 30000.0 / 1001), mode(.raw, 1280, 720, 30000.0 / 1001)]
        XCTAssertEqual(CameraMode.best(for: VideoSize(width: 640, height: 360), framerate: 30, among: ntsc), mode(.raw, 640, 480, 30000.0 / 1001))
        let slow = [mode(.raw, 640, 480, 15), mode(.raw, 1280, 720, 7.5)]
        XCTAssertEqual(CameraMode.best(for: VideoSize(width: 640, height: 360), framerate: 30, among: slow), mode(.raw, 640, 480, 15))
    }

    func test_noModes_theCameraChooses() {
        XCTAssertNil(CameraMode.best(for: VideoSize(width: 640, height: 360), framerate: 30, among: []))
    }
}
