@testable import ConfabCore
import XCTest

/// How large the call shows one camera, from what every other device said (issue 15).
final class CameraAudience_Tests: XCTestCase {
    private let tile = VideoSize(width: 640, height: 360)
    private let small = VideoSize(width: 320, height: 180)
    /// Ada is the sender; bob and cy watch her.
    private let everyone = ["s-ada", "s-bob", "s-cy"]

    func test_viewerWhoHasNotSaid_makesTheSizeUnknown() {
        var audience = CameraAudience()
        audience.viewer("s-bob", shows: ["s-ada": tile])

        XCTAssertEqual(audience.size(of: "s-ada", amongViewers: everyone), .unknown, "cy may show ada at any size")
    }

    func test_everyoneSaid_noneShowsIt_isHidden() {
        var audience = CameraAudience()
        audience.viewer("s-bob", shows: [:])
        audience.viewer("s-cy", shows: ["s-bob": tile])

        XCTAssertEqual(audience.size(of: "s-ada", amongViewers: everyone), .hidden)
    }

    func test_largest_isEachSidesMaximum_overAWideAndATallView() {
        var audience = CameraAudience()
        audience.viewer("s-bob", shows: ["s-ada": VideoSize(width: 800, height: 200)])
        audience.viewer("s-cy", shows: ["s-ada": VideoSize(width: 200, height: 600), "s-bob": VideoSize(width: 1920, height: 1080)])

        XCTAssertEqual(audience.size(of: "s-ada", amongViewers: everyone), .largest(VideoSize(width: 800, height: 600)),
                       "a picture that covers both views; cy's view of bob is not ada's")
    }

    func test_forgottenViewer_whoLeftTheCall_noLongerCounts() {
        var audience = CameraAudience()
        audience.viewer("s-bob", shows: ["s-ada": VideoSize(width: 1280, height: 720)])
        audience.viewer("s-cy", shows: ["s-ada": small])

        audience.forget(viewer: "s-bob")

        XCTAssertEqual(audience.size(of: "s-ada", amongViewers: ["s-ada", "s-cy"]), .largest(small))
    }

    func test_forgottenViewer_stillListed_readsAsNotHavingSaid() {
        var audience = CameraAudience()
        audience.viewer("s-bob", shows: ["s-ada": tile])
        audience.viewer("s-cy", shows: ["s-ada": small])

        audience.forget(viewer: "s-bob")

        XCTAssertEqual(audience.size(of: "s-ada", amongViewers: everyone), .unknown, "bob back in the call must say again")
    }

    func test_shownSessionItself_isNoViewer_ofItsOwnCamera() {
        var audience = CameraAudience()
        audience.viewer("s-bob", shows: ["s-ada": small])

        // Ada never says how large she shows herself: she is listed among the call's sessions.
        XCTAssertEqual(audience.size(of: "s-ada", amongViewers: ["s-ada", "s-bob"]), .largest(small))
    }

    func test_laterViews_replaceEarlierOnes_ofTheSameViewer() {
        var audience = CameraAudience()
        audience.viewer("s-bob", shows: ["s-ada": VideoSize(width: 1280, height: 720)])

        audience.viewer("s-bob", shows: ["s-ada": small])

        XCTAssertEqual(audience.size(of: "s-ada", amongViewers: ["s-ada", "s-bob"]), .largest(small), "the tile shrank")
    }
}
