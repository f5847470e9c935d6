import ConfabCore
@testable import ConfabMedia
import Foundation
import GLibBridge
import XCTest

/// A receiver's frames reach the UI at exactly the pixels of the tile that shows them, and
/// follow the tile when it is resized while the video runs (issue 15), whatever size the sender
/// changes to meanwhile: the decoded VP8 stream of a real encoder, ending in the receiver's own
/// branch end (`Subscriber` and the self-view use the same description).
final class DisplaySizedVideo_Tests: XCTestCase {
    override func setUp() {
        MainActorMainLoopBridge.install()
        GStreamer.initialize()
    }

    override func tearDown() { MainActorMainLoopBridge.uninstall() }

    func test_tileResizedAndSenderResized_whilePlaying_framesArriveAtTheTilesSize_neverStopping() throws { try onMain {
        let pipeline = try MediaPipeline(description:
            "videotestsrc is-live=true pattern=smpte ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! "
            + "videoscale ! capsfilter name=sent caps=\"video/x-raw,width=640,height=360\" ! "
            + "vp8enc deadline=1 cpu-used=8 ! vp8dec name=decoder-0 ! "
            + DisplaySizedVideo.description(filterName: "display-size-0", defaultSize: VideoSize(width: 640, height: 360))
            + " ! appsink name=frames-0 max-buffers=1 drop=true sync=false")
        var errors: [String] = []
        pipeline.watchBus { message in
            if case .error(let text, let debug, _) = message { errors.append("\(text) \(debug ?? "")") }
        }
        var last: VideoFrame?
        var frames = 0
        pipeline.receiveVideoFrames(fromAppSink: "frames-0") { frame in
            frames += 1
            last = frame
        }
        let sized = DisplaySizedVideo(pipeline: pipeline, filterName: "display-size-0", defaultSize: VideoSize(width: 640, height: 360)) {
            pipeline.videoSize(ofElement: "decoder-0").map { VideoSize(width: $0.width, height: $0.height) }
        }
        @MainActor func size() -> VideoSize { VideoSize(width: last?.width ?? 0, height: last?.height ?? 0) }
        @MainActor func arrives(at expected: VideoSize, _ what: String) {
            let before = frames
            XCTAssertTrue(runLoop(until: { size() == expected && frames >= before + 3 }),
                          "\(what): frames stayed at \(size()) (\(frames - before) new)")
        }
        try pipeline.play()
        arrives(at: VideoSize(width: 640, height: 360), "before any tile is known: the configured size")

        // A 400x300 tile (a 2x2 grid): its own pixels, the picture cropped at the sides — the
        // colour bars' middle (green, as in the camera's middle) sits in the frame's middle.
        sized.displaySize = VideoSize(width: 400, height: 300)
        arrives(at: VideoSize(width: 400, height: 300), "a smaller tile")
        let middle = try XCTUnwrap(last?.pixel(x: 200, y: 100))
        XCTAssertTrue(middle.green > 150 && middle.red < 80, "the crop is not centred: the middle is \(middle)")

        // The window grows, then the sender drops to 320x180 (a slower path): the tile's size
        // holds, and nothing stops.
        sized.displaySize = VideoSize(width: 960, height: 540)
        arrives(at: VideoSize(width: 960, height: 540), "a larger tile")
        pipeline.set("caps", "video/x-raw,width=320,height=180", onElement: "sent")
        XCTAssertTrue(runLoop(until: { pipeline.videoSize(ofElement: "decoder-0")?.width == 320 }), "the sender's new size never came")
        sized.apply()
        arrives(at: VideoSize(width: 960, height: 540), "after the sender's size changed")

        // A portrait tile: narrower and taller at once.
        sized.displaySize = VideoSize(width: 300, height: 500)
        arrives(at: VideoSize(width: 300, height: 500), "a portrait tile")
        XCTAssertEqual(errors, [], "the branch failed while the sizes changed")
        pipeline.stop()
    } }
}
