@testable import GLibBridge
import XCTest

/// A camera's caps read as the modes it can be opened in (issue 15).
final class VideoCapsMode_Tests: XCTestCase {
    func test_aWebcamsCaps_everyFixedSizeEntry_withItsHighestRate_fromAListOrARange() {
        let caps = "image/jpeg, width=(int)1920, height=(int)1080, framerate=(fraction){ 30/1, 25/1, 15/1 }; "
            + "video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction)[ 5/1, 30000/1001 ]; "
            + "video/x-raw, format=(string)YUY2, width=(int)1280, height=(int)720, framerate=(fraction)10/1; "
            + "video/x-raw, format=(string){ NV12, YUY2 }, width=(int)[ 16, 4096 ], height=(int)[ 16, 2160 ], framerate=(fraction)30/1"

        let modes = VideoCapsMode.modes(inCaps: caps)

        XCTAssertEqual(modes.map(\.mediaType), ["image/jpeg", "video/x-raw", "video/x-raw"], "the entry with size ranges is left out")
        XCTAssertEqual(modes.map { "\($0.width)x\($0.height)" }, ["1920x1080", "640x480", "1280x720"])
        XCTAssertEqual(modes[0].maximumFramerate, 30, accuracy: 0.001, "the highest of a list")
        XCTAssertEqual(modes[1].maximumFramerate, 30000.0 / 1001, accuracy: 0.001, "the top of a range")
        XCTAssertEqual(modes[2].maximumFramerate, 10, accuracy: 0.001, "a single rate")
    }

    func test_capsThatDoNotParse_noModes() {
        XCTAssertEqual(VideoCapsMode.modes(inCaps: "not caps at all, width=(int)"), [])
    }
}
