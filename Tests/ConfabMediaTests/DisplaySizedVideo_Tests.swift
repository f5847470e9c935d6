import ConfabCore
@testable import ConfabMedia
import Foundation
import GLibBridge
import XCTest

/// A receiver's frames reach the UI at the size of the tile that shows them, and follow the
/// tile when it is resized while the video runs (issue 15): the decoded VP8 stream of a real
/// encoder, ending in the receiver's own branch end (`Subscriber` uses the same description).
final class DisplaySizedVideo_Tests: XCTestCase {
    override func setUp() {
        MainActorMainLoopBridge.install()
        GStreamer.initialize()
    }

    override func tearDown() { MainActorMainLoopBridge.uninstall() }

    func test_tileResizedWhilePlaying_framesArriveAtTheTilesCoverSize() throws { try onMain {
        let pipeline = try MediaPipeline(description:
            "videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! "
            + "vp8enc deadline=1 cpu-used=8 ! vp8dec name=decoder-0 ! "
            + DisplaySizedVideo.description(filterName: "display-size-0", format: "BGRA", defaultSize: VideoSize(width: 640, height: 360))
            + " ! appsink name=frames-0 max-buffers=1 drop=true sync=false")
        var errors: [String] = []
        pipeline.watchBus { message in
            if case .error(let text, let debug, _) = message { errors.append("\(text) \(debug ?? "")") }
        }
        var lastSize = VideoSize(width: 0, height: 0)
        var frames = 0
        pipeline.receiveVideoFrames(fromAppSink: "frames-0") { frame in
            frames += 1
            lastSize = VideoSize(width: frame.width, height: frame.height)
        }
        let sized = DisplaySizedVideo(pipeline: pipeline, filterName: "display-size-0", format: "BGRA",
                                      defaultSize: VideoSize(width: 640, height: 360)) {
            pipeline.videoSize(ofElement: "decoder-0").map { VideoSize(width: $0.width, height: $0.height) }
        }
        try pipeline.play()
        XCTAssertTrue(runLoop(until: { frames >= 3 }), "nothing decoded")
        XCTAssertEqual(lastSize, VideoSize(width: 640, height: 360), "before any tile is known: the configured size")

        // Given a 400x300 tile (a 2x2 grid), when it is known: frames cover it, cropped at the sides.
        sized.displaySize = VideoSize(width: 400, height: 300)
        XCTAssertTrue(runLoop(until: { lastSize == VideoSize(width: 534, height: 300) }), "frames stayed at \(lastSize)")

        // When the window grows: the next frames follow, without the video stopping.
        sized.displaySize = VideoSize(width: 960, height: 540)
        let before = frames
        XCTAssertTrue(runLoop(until: { lastSize == VideoSize(width: 960, height: 540) && frames >= before + 3 }),
                      "frames stayed at \(lastSize) (\(frames - before) new)")
        XCTAssertEqual(errors, [], "the branch failed while the tile changed size")
        pipeline.stop()
    } }
}
