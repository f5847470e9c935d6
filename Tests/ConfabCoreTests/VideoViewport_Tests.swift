import ConfabCore
import ConfabTestSupport
import XCTest

/// The size frames are scaled to so that they cover a tile at one frame pixel per screen pixel.
final class VideoViewport_Tests: XCTestCase {
    func test_coverSize_tileTallerThanTheVideo_fillsTheHeight_andCropsTheSides() {
        let size = VideoViewport.coverSize(of: VideoSize(width: 640, height: 360), in: VideoSize(width: 400, height: 300))
        // 300 × 16/9 = 533.3, rounded up and kept even like the tile's 400: centred on a whole pixel.
        XCTAssertEqual(size, VideoSize(width: 534, height: 300))
    }

    func test_coverSize_tileWiderThanTheVideo_fillsTheWidth() {
        let size = VideoViewport.coverSize(of: VideoSize(width: 640, height: 360), in: VideoSize(width: 801, height: 300))
        // 801 × 9/16 = 450.6 → 451, odd like nothing: the overflow (451 − 300) must be even → 452.
        XCTAssertEqual(size, VideoSize(width: 801, height: 452))
    }

    func test_coverSize_sameShape_isTheTile() {
        XCTAssertEqual(VideoViewport.coverSize(of: VideoSize(width: 640, height: 360), in: VideoSize(width: 320, height: 180)),
                       VideoSize(width: 320, height: 180))
    }

    func test_coverSize_hugeTile_isLimited_keepingTheShape() {
        let size = VideoViewport.coverSize(of: VideoSize(width: 640, height: 360), in: VideoSize(width: 3840, height: 2160))
        XCTAssertEqual(size, VideoSize(width: 1920, height: 1080))
    }

    func test_update_sameSizeTwice_tellsOnce() { onMain {
        let viewport = VideoViewport()
        var told: [VideoSize] = []
        let watch = viewport.changes.subscribe { told.append($0) }
        viewport.update(VideoSize(width: 400, height: 300))
        viewport.update(VideoSize(width: 400, height: 300))
        viewport.update(VideoSize(width: 0, height: 300))
        viewport.update(VideoSize(width: 500, height: 300))
        XCTAssertEqual(told, [VideoSize(width: 400, height: 300), VideoSize(width: 500, height: 300)])
        watch.cancel()
    } }
}
