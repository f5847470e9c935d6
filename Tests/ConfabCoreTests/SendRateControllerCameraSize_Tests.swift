@testable import ConfabCore
import XCTest

/// The camera is taken no larger than anyone shows it (issue 15): what the others show of us
/// (`limit(to:)`) and what our own self-view shows, whichever needs more.
final class SendRateControllerCameraSize_Tests: XCTestCase {
    private let p360 = VideoSize(width: 640, height: 360)
    private let p270 = VideoSize(width: 480, height: 270)
    private let p180 = VideoSize(width: 320, height: 180)
    /// A tile of a 2x2 grid in the default window.
    private let gridTile = VideoSize(width: 430, height: 242)
    /// The one-to-one call's corner self-view.
    private let cornerSelfView = VideoSize(width: 234, height: 129)
    /// The one-to-one call's large tile.
    private let largeTile = VideoSize(width: 862, height: 484)

    func test_nobodyHasSaid_theCameraGivesTheLargestSizeWeMaySend() {
        let controller = SendRateController(maximumSize: p360)

        XCTAssertEqual(controller.cameraSize(selfView: .hidden), p360)
        XCTAssertEqual(controller.cameraSize(selfView: .shown(cornerSelfView)), p360)
    }

    func test_othersShowUsInSmallTiles_theCameraGivesThatSize_whenOurSelfViewIsNoLarger() {
        var controller = SendRateController(maximumSize: p360)
        controller.limit(to: .largest(gridTile))

        XCTAssertEqual(controller.cameraSize(selfView: .hidden), p270, "minimized: nobody here shows us")
        XCTAssertEqual(controller.cameraSize(selfView: .shown(gridTile)), p270, "our own tile in the same grid")
        XCTAssertEqual(controller.cameraSize(selfView: .shown(cornerSelfView)), p270)
    }

    func test_ourSelfViewLargerThanWhatOthersShow_theCameraCoversTheSelfView() {
        var controller = SendRateController(maximumSize: p360)
        controller.limit(to: .largest(gridTile))

        XCTAssertEqual(controller.cameraSize(selfView: .shown(largeTile)), p360, "our own picture shown large must not be blurred")
        XCTAssertEqual(controller.cameraSize(selfView: .unknown), p360, "a self-view of a size not told yet gets the largest")
    }

    func test_nobodyShowsUs_theCameraGivesTheSmallestStep() {
        var controller = SendRateController(maximumSize: p360)
        controller.limit(to: .hidden)

        XCTAssertEqual(controller.cameraSize(selfView: .hidden), p180)
        XCTAssertEqual(controller.cameraSize(selfView: .shown(VideoSize(width: 300, height: 169))), p180)
        XCTAssertEqual(controller.cameraSize(selfView: .shown(gridTile)), p270, "the self-view's own tile decides")
    }

    func test_congestion_doesNotChangeTheCameraSize() {
        var controller = SendRateController(maximumSize: p360)
        controller.limit(to: .largest(gridTile))
        for _ in 0..<4 {
            controller.update(with: SendFeedback(lossFraction: 0.3, roundTripTime: 0.02, sentBitrate: Double(controller.targetBitrate)))
        }

        XCTAssertEqual(controller.step.size, p180, "given: the path cut the step below the limit")
        XCTAssertEqual(controller.cameraSize(selfView: .hidden), p270, "the camera follows the views, not each bandwidth step")
    }

    func test_limitLifted_theCameraGivesTheLargestSizeAgain() {
        var controller = SendRateController(maximumSize: p360)
        controller.limit(to: .largest(gridTile))
        controller.limit(to: .unknown)

        XCTAssertEqual(controller.cameraSize(selfView: .hidden), p360)
    }
}
