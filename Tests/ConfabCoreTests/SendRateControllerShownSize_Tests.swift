@testable import ConfabCore
import XCTest

/// Our camera is sent no larger than anyone in the call shows it (issue 15), and as large as
/// the path allows once that limit goes.
final class SendRateControllerShownSize_Tests: XCTestCase {
    private let p720 = VideoSize(width: 1280, height: 720)
    private let p540 = VideoSize(width: 960, height: 540)
    private let p360 = VideoSize(width: 640, height: 360)
    private let p270 = VideoSize(width: 480, height: 270)
    private let p180 = VideoSize(width: 320, height: 180)
    /// A tile of a 2x2 grid in a small window: 480x270 covers it, 640x360 is wasted.
    private let smallTile = ShownSize.largest(VideoSize(width: 430, height: 242))

    /// One clear second: nothing lost, no queue, the encoder sending the target.
    private func clearSecond(_ controller: inout SendRateController) {
        controller.update(with: SendFeedback(lossFraction: 0, roundTripTime: 0.02, sentBitrate: Double(controller.targetBitrate)))
    }

    /// One congested second: 30 % of what was sent lost (a report of a link over its cap).
    private func congestedSecond(_ controller: inout SendRateController) {
        controller.update(with: SendFeedback(lossFraction: 0.3, roundTripTime: 0.02, sentBitrate: Double(controller.targetBitrate)))
    }

    func test_smallTile_limits360pTo270p_atTheSameFrameRate_andTheTargetToWhat270pUses() {
        var controller = SendRateController(maximumSize: p720)
        XCTAssertEqual(controller.step.description, "640x360@30", "given: 360p at 30 fps")

        let changed = controller.limit(to: smallTile)

        XCTAssertTrue(changed)
        XCTAssertEqual(controller.step.size, p270)
        XCTAssertEqual(controller.step.framerate, 30, "the rate still pays for 30 fps: only the size comes down")
        XCTAssertEqual(controller.targetBitrate, 330_000, "just under 360p's minimum: 270p at 30 fps looks its best there")
        XCTAssertEqual(controller.shownLimit?.size, p270)
    }

    func test_cameraNobodyShows_isSentAtTheSmallestStep_slowly_withLittleRate() {
        var controller = SendRateController(maximumSize: p720)

        controller.limit(to: .hidden)

        XCTAssertEqual(controller.step.size, p180)
        XCTAssertEqual(controller.step.framerate, 15)
        XCTAssertLessThanOrEqual(controller.targetBitrate, 160_000)
    }

    func test_viewAsLargeAsTheTopStep_orUnknown_limitsNothing() {
        for shown in [ShownSize.largest(p720), .largest(VideoSize(width: 2560, height: 1440)), .unknown] {
            var controller = SendRateController(maximumSize: p720, startBitrate: SendRateController.maximumBitrate)

            let changed = controller.limit(to: shown)

            XCTAssertFalse(changed, "\(shown)")
            XCTAssertNil(controller.shownLimit, "\(shown)")
            XCTAssertEqual(controller.step.size, p720, "\(shown)")
            XCTAssertEqual(controller.targetBitrate, SendRateController.maximumBitrate, "\(shown)")
        }
    }

    func test_limitLifted_onAClearPath_restoresTheRateAtOnce_notOverSecondsOfGrowth() {
        var controller = SendRateController(maximumSize: p720, startBitrate: SendRateController.maximumBitrate)
        controller.limit(to: smallTile)
        for _ in 0..<5 { clearSecond(&controller) }
        XCTAssertEqual(controller.targetBitrate, 330_000, "given: limited on a clear path")

        controller.limit(to: .unknown)

        XCTAssertEqual(controller.targetBitrate, SendRateController.maximumBitrate, "the path proved it carries this before the tile shrank")
        XCTAssertEqual(controller.step.size, p720)
        XCTAssertNil(controller.shownLimit)
    }

    func test_limitLifted_afterACongestedSecond_doesNotJumpBack() {
        var controller = SendRateController(maximumSize: p720, startBitrate: SendRateController.maximumBitrate)
        controller.limit(to: smallTile)
        congestedSecond(&controller)
        XCTAssertTrue(controller.isCongested, "given: the path congested while limited")
        let cut = controller.targetBitrate
        XCTAssertLessThan(cut, 330_000)

        controller.limit(to: .unknown)

        XCTAssertEqual(controller.targetBitrate, cut, "a congested path is no longer proven to carry the rate from before the limit")
        XCTAssertNotEqual(controller.step.size, p720)
    }

    func test_clearPath_growsUpToTheLimitedCeiling_neverPastIt() {
        var controller = SendRateController(maximumSize: p720, startBitrate: SendRateController.minimumBitrate)
        controller.limit(to: smallTile)
        var targets: [Int] = []
        var sizes: Set<VideoSize> = []

        for _ in 0..<30 {
            clearSecond(&controller)
            targets.append(controller.targetBitrate)
            sizes.insert(controller.step.size)
        }

        XCTAssertEqual(targets.max(), 330_000, "\(targets)")
        XCTAssertEqual(targets.last, 330_000, "grown to the ceiling and held there: \(targets)")
        XCTAssertTrue(sizes.isSubset(of: [p180, p270]), "sent larger than the tile: \(sizes)")
    }

    func test_tallTile_needsTheTopStep_whileAWideOneOfTheSameArea_needsLess() {
        let ladder = SendRateController.ladder[...]

        let tall = SendRateController.step(showing: .largest(VideoSize(width: 200, height: 800)), in: ladder)
        let wide = SendRateController.step(showing: .largest(VideoSize(width: 800, height: 200)), in: ladder)

        // A 16:9 picture cropped to fill a tall tile: its height fills the tile's, so 800 rows need 720p.
        XCTAssertNil(tall, "a tall tile was given \(tall.map(\.description) ?? "")")
        XCTAssertEqual(wide?.size, p540, "an 800-wide tile needs 800 columns: 960x540 is the smallest that has them")
    }

    func test_controllerCappedAt360p_withASmallTile_sends270p() {
        var controller = SendRateController(maximumSize: p360)
        XCTAssertEqual(controller.step.size, p360, "given: the largest step this machine may send")

        controller.limit(to: smallTile)

        XCTAssertEqual(controller.step.size, p270)
        XCTAssertEqual(controller.step.framerate, 30)
    }

    func test_limitedSize_keeps30fps_downToWhatItsPixelsNeed_notTo360psRate() {
        // A busy machine's cut to 220 kbit/s: under 360p's 330, over what 270p at 30 fps needs.
        var controller = SendRateController(maximumSize: p720, startBitrate: 220_000)
        XCTAssertEqual(controller.step.description, "480x270@15", "given: unlimited, 220 kbit/s is 270p at 15 fps")

        controller.limit(to: smallTile)

        XCTAssertEqual(controller.step.description, "480x270@30", "270p at 30 fps needs ~190 kbit/s, not 360p's 330")
        XCTAssertEqual(SendRateController.fullRateMinimum(at: controller.shownLimit!, in: SendRateController.ladder[...]), 185_625)
    }

    func test_limitedSize_underWhatItsPixelsNeedAt30fps_isSentAt15() {
        var controller = SendRateController(maximumSize: p720, startBitrate: 170_000)

        controller.limit(to: smallTile)

        XCTAssertEqual(controller.step.description, "480x270@15")
    }

    func test_hiddenCamera_staysAt15fps_whateverTheRate() {
        var controller = SendRateController(maximumSize: p720, startBitrate: SendRateController.maximumBitrate)

        controller.limit(to: .hidden)
        for _ in 0..<5 { clearSecond(&controller) }

        XCTAssertEqual(controller.step.description, "320x180@15")
    }

    func test_tileAPixelUnderALadderSize_withOddSides_getsThatSize_notTheNextOneUp() {
        // Covering keeps the tile's parity: 479x269 needs 479x271 of a 16:9 picture.
        XCTAssertEqual(SendRateController.step(showing: .largest(VideoSize(width: 479, height: 269)), in: SendRateController.ladder[...])?.size, p270)
        XCTAssertEqual(SendRateController.step(showing: .largest(VideoSize(width: 484, height: 274)), in: SendRateController.ladder[...])?.size, p360,
                       "a tile clearly larger than 480x270 needs the next size")
    }
}
