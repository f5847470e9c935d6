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

    func test_coverCrop_portraitTile_cutsTheSidesEvenly_toTheTilesShape() {
        // A 425x505 grid tile showing a 640x360 camera: 303 of the 640 columns are shown.
        let crop = VideoViewport.coverCrop(of: VideoSize(width: 640, height: 360), in: VideoSize(width: 425, height: 505))
        XCTAssertEqual(crop, VideoCrop(left: 168, right: 168, top: 0, bottom: 0))
        let left = crop.remainder(of: VideoSize(width: 640, height: 360))
        XCTAssertEqual(Double(left.width) / Double(left.height), 425.0 / 505.0, accuracy: 0.01)
    }

    func test_coverCrop_wideTile_cutsTopAndBottom_evenEdges() {
        let crop = VideoViewport.coverCrop(of: VideoSize(width: 1280, height: 720), in: VideoSize(width: 900, height: 300))
        XCTAssertEqual(crop.left + crop.right, 0)
        XCTAssertEqual(crop.top, crop.bottom)
        XCTAssertEqual(crop.top % 2, 0)
        let left = crop.remainder(of: VideoSize(width: 1280, height: 720))
        XCTAssertEqual(Double(left.width) / Double(left.height), 3.0, accuracy: 0.02)
    }

    func test_coverCrop_sameShape_orNoTile_cutsNothing() {
        XCTAssertEqual(VideoViewport.coverCrop(of: VideoSize(width: 640, height: 360), in: VideoSize(width: 320, height: 180)), VideoCrop())
        XCTAssertEqual(VideoViewport.coverCrop(of: VideoSize(width: 640, height: 360), in: VideoSize(width: 0, height: 180)), VideoCrop())
        // A sliver of a tile never cuts the whole picture away.
        let crop = VideoViewport.coverCrop(of: VideoSize(width: 640, height: 360), in: VideoSize(width: 1, height: 4000))
        XCTAssertGreaterThanOrEqual(crop.remainder(of: VideoSize(width: 640, height: 360)).width, 2)
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
