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
        let branch = try SizedBranch(source: "videotestsrc is-live=true pattern=smpte ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! "
            + "videoscale ! capsfilter name=sent caps=\"video/x-raw,width=640,height=360\" ! "
            + "vp8enc deadline=1 cpu-used=8 ! vp8dec name=decoder-0")
        let pipeline = branch.pipeline
        let sized = branch.sized {
            pipeline.videoSize(ofElement: "decoder-0").map { VideoSize(width: $0.width, height: $0.height) }
        }
        @MainActor func arrives(at expected: VideoSize, _ what: String) {
            let before = branch.frames
            XCTAssertTrue(runLoop(until: { branch.size == expected && branch.frames >= before + 3 }),
                          "\(what): frames stayed at \(branch.size) (\(branch.frames - before) new)")
        }
        try pipeline.play()
        arrives(at: VideoSize(width: 640, height: 360), "before any tile is known: the configured size")

        // A 400x300 tile (a 2x2 grid): its own pixels, the picture cropped at the sides — the
        // colour bars' middle (green, as in the camera's middle) sits in the frame's middle.
        sized.displaySize = VideoSize(width: 400, height: 300)
        arrives(at: VideoSize(width: 400, height: 300), "a smaller tile")
        let middle = try XCTUnwrap(branch.last?.pixel(x: 200, y: 100))
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
        XCTAssertEqual(branch.errors, [], "the branch failed while the sizes changed")
        pipeline.stop()
    } }

    /// A window resized by dragging gives its tile a new size many times a second. Each change
    /// races the frames already negotiated for the last one; in the capsfilters' default mode
    /// the branch stopped with not-negotiated within a few dozen changes (3 runs in 4 of a
    /// 60-change script, 1 in 2 of 150 changes like these), taking the stream that feeds it down with it.
    func test_tileResizedManyTimesASecond_theBranchNeverStops() throws { try onMain {
        let branch = try SizedBranch(source: "videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=640,height=360,framerate=30/1")
        let pipeline = branch.pipeline
        let sized = branch.sized { VideoSize(width: 640, height: 360) }
        try pipeline.play()
        XCTAssertTrue(runLoop(until: { branch.last != nil }), "no frame at all")
        // The same sizes every run: a drag from wide to tall and back, with some jitter.
        var generator = SeededSizes(seed: 7)
        for _ in 0..<250 {
            sized.displaySize = generator.next()
            runLoop(until: { false }, timeout: generator.pause())
            if !branch.errors.isEmpty { break }
        }
        let final = VideoSize(width: 300, height: 500)
        sized.displaySize = final
        XCTAssertTrue(runLoop(until: { branch.size == final }), "frames stopped following the tile (last \(branch.size))")
        XCTAssertEqual(branch.errors, [], "the branch stopped while the tile was resized")
        pipeline.stop()
    } }
}

/// A running `source` ending in the receiver's branch end (`display-size-0`, 640x360 until a
/// tile says) and an appsink, with the errors it posted and the frames that came.
@MainActor
private final class SizedBranch {
    let pipeline: MediaPipeline
    private(set) var errors: [String] = []
    private(set) var frames = 0
    private(set) var last: VideoFrame?
    /// The last frame's size (0x0 before any).
    var size: VideoSize { VideoSize(width: last?.width ?? 0, height: last?.height ?? 0) }

    init(source: String) throws {
        pipeline = try MediaPipeline(description: source + " ! "
            + DisplaySizedVideo.description(filterName: "display-size-0", defaultSize: VideoSize(width: 640, height: 360))
            + " ! appsink name=frames-0 max-buffers=1 drop=true sync=false")
        pipeline.watchBus { [weak self] message in
            if case .error(let text, let debug, _) = message { self?.errors.append("\(text) \(debug ?? "")") }
        }
        pipeline.receiveVideoFrames(fromAppSink: "frames-0") { [weak self] frame in
            self?.frames += 1
            self?.last = frame
        }
    }

    /// The branch end's sizing, with the picture arriving at `sourceSize`.
    func sized(sourceSize: @escaping @MainActor () -> VideoSize?) -> DisplaySizedVideo {
        DisplaySizedVideo(pipeline: pipeline, filterName: "display-size-0", defaultSize: VideoSize(width: 640, height: 360),
                          sourceSize: sourceSize)
    }
}

/// Tile sizes and pauses from a fixed seed (a small linear congruential generator), so every
/// run resizes the same way.
private struct SeededSizes {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    private mutating func draw(_ range: Range<Int>) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return range.lowerBound + Int((state >> 33) % UInt64(range.count))
    }
    mutating func next() -> VideoSize { VideoSize(width: draw(50..<450) * 2, height: draw(50..<350) * 2) }
    /// 0, 20 or 100 ms.
    mutating func pause() -> Double { [0, 0.02, 0.1][draw(0..<3)] }
}
