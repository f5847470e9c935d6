import ConfabCore
@testable import ConfabMedia
import Foundation
@testable import GLibBridge
import XCTest

/// A received (or captured) picture reaches the UI at exactly the pixels of the view that shows
/// it — cut to its shape, scaled, converted and, for a self-view, mirrored as each frame arrives
/// (issue 15) — follows the view when it is resized while the video runs, whatever size the
/// sender changes to meanwhile, and keeps GStreamer's colours.
final class VideoFrameScaler_Tests: XCTestCase {
    override func setUp() {
        MainActorMainLoopBridge.install()
        GStreamer.initialize()
    }

    override func tearDown() { MainActorMainLoopBridge.uninstall() }

    // MARK: The cut

    func test_cut_ofAWideFrame_forAPortraitView_isItsMiddle_atTheViewsShape() {
        let cut = VideoFrameScaler.cut(of: .init(width: 640, height: 360), for: .init(width: 300, height: 500))
        XCTAssertEqual(cut.height, 360)
        XCTAssertEqual(cut.width, 216, "360 × 300/500")
        XCTAssertEqual(cut.x, 212, "(640 − 216) / 2, even")
        XCTAssertEqual(cut.y, 0)
    }

    func test_cut_ofATallFrame_forAWideView_isItsMiddleBand_withAnEvenOrigin() {
        let cut = VideoFrameScaler.cut(of: .init(width: 480, height: 640), for: .init(width: 862, height: 485))
        XCTAssertEqual(cut.width, 480)
        XCTAssertEqual(cut.height, 270, "480 × 485/862, rounded")
        XCTAssertEqual(cut.y, 184, "(640 − 270) / 2 = 185, made even for the colour planes")
    }

    func test_cut_ofAFrameOfTheViewsShape_isTheWholeFrame() {
        XCTAssertEqual(VideoFrameScaler.cut(of: .init(width: 640, height: 360), for: .init(width: 862, height: 485)),
                       VideoFrameScaler.Cut(x: 0, y: 0, width: 640, height: 360))
    }

    // MARK: Frames

    func test_tileResizedAndSenderResized_whilePlaying_framesArriveAtTheTilesSize_neverStopping() throws { try onMain {
        let branch = try ScaledBranch(source: "videotestsrc is-live=true pattern=smpte ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! "
            + "videoscale ! capsfilter name=sent caps=\"video/x-raw,width=640,height=360\" ! "
            + "vp8enc deadline=1 cpu-used=8 ! vp8dec name=decoder")
        let pipeline = branch.pipeline
        try pipeline.play()
        branch.arrives(at: .init(width: 640, height: 360), "before any tile is known: the frame's own size")

        // A 400x300 tile (a 2x2 grid): its own pixels, the picture cut at the sides — the
        // colour bars' middle (green, as in the camera's middle) sits in the frame's middle.
        branch.scaler.outputSize = .init(width: 400, height: 300)
        branch.arrives(at: .init(width: 400, height: 300), "a smaller tile")
        let middle = try XCTUnwrap(branch.last?.pixel(x: 200, y: 100))
        XCTAssertTrue(middle.green > 150 && middle.red < 80, "the cut is not centred: the middle is \(middle)")

        // The window grows, then the sender drops to 320x180 (a slower path): the tile's size
        // holds, and nothing stops.
        branch.scaler.outputSize = .init(width: 960, height: 540)
        branch.arrives(at: .init(width: 960, height: 540), "a larger tile")
        pipeline.set("caps", "video/x-raw,width=320,height=180", onElement: "sent")
        XCTAssertTrue(runLoop(until: { pipeline.videoSize(ofElement: "decoder")?.width == 320 }), "the sender's new size never came")
        branch.arrives(at: .init(width: 960, height: 540), "after the sender's size changed")
        // And to 4:3 (another camera): still the tile's size, its middle still green.
        pipeline.set("caps", "video/x-raw,width=480,height=360", onElement: "sent")
        XCTAssertTrue(runLoop(until: { pipeline.videoSize(ofElement: "decoder")?.width == 480 }), "the sender's 4:3 never came")
        branch.arrives(at: .init(width: 960, height: 540), "after the sender's shape changed")

        // A portrait tile: narrower and taller at once.
        branch.scaler.outputSize = .init(width: 300, height: 500)
        branch.arrives(at: .init(width: 300, height: 500), "a portrait tile")
        XCTAssertEqual(branch.errors, [], "the branch failed while the sizes changed")
        pipeline.stop()
    } }

    /// A window resized by dragging gives its tile a new size many times a second. With
    /// capsfilters that each change renegotiated, the branch stopped with not-negotiated within
    /// a few dozen changes unless they were ordered carefully; the scaler reads the size per frame.
    func test_tileResizedManyTimesASecond_theBranchNeverStops() throws { try onMain {
        let branch = try ScaledBranch(source: "videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=640,height=360,framerate=30/1")
        try branch.pipeline.play()
        XCTAssertTrue(runLoop(until: { branch.last != nil }), "no frame at all")
        // The same sizes every run: a drag from wide to tall and back, with some jitter.
        var generator = SeededSizes(seed: 7)
        for _ in 0..<250 {
            branch.scaler.outputSize = generator.next()
            runLoop(until: { false }, timeout: generator.pause())
            if !branch.errors.isEmpty { break }
        }
        branch.scaler.outputSize = .init(width: 300, height: 500)
        branch.arrives(at: .init(width: 300, height: 500), "frames stopped following the tile")
        XCTAssertEqual(branch.errors, [], "the branch stopped while the tile was resized")
        branch.pipeline.stop()
    } }

    /// The colours are GStreamer's own: each bar of the test pattern matches videoconvert's
    /// BGRA of the same frame, at the frame's size, scaled up, and shrunk to a thumbnail (the
    /// I420 path), for SD (BT.601) and HD (BT.709) — so a wrong matrix (BT.601 on the HD frame
    /// makes its red bar's red 22 levels short) or swapped colour planes would show. Blue may
    /// be up to 12 levels off in the bars whose U is at its limits: libyuv's SIMD code caps the
    /// U → blue coefficient at 2.0 where BT.601 has 2.017 and BT.709 2.112 (the same on every
    /// path, computed by hand from the frame's YUV).
    func test_colours_matchGStreamersConversion_atEverySize() throws { try onMain {
        for (source, output) in [(VideoFrameScaler.Size(width: 640, height: 360), VideoFrameScaler.Size(width: 640, height: 360)),
                                 (.init(width: 640, height: 360), .init(width: 862, height: 484)),
                                 (.init(width: 1280, height: 720), .init(width: 1280, height: 720)),
                                 (.init(width: 1280, height: 720), .init(width: 640, height: 360)),
                                 (.init(width: 1280, height: 720), .init(width: 160, height: 90))] {
            let pair = try ReferencePair(pattern: "smpte", size: source)
            pair.scaler.outputSize = output
            try pair.pipeline.play()
            XCTAssertTrue(runLoop(until: { pair.scaled?.width == output.width && pair.reference != nil }), "no frames at \(output)")
            let scaled = try XCTUnwrap(pair.scaled), reference = try XCTUnwrap(pair.reference)
            for bar in 0..<7 {
                let x = (2 * bar + 1) * output.width / 14, y = output.height / 3
                let referenceX = (2 * bar + 1) * source.width / 14, referenceY = source.height / 3
                let got = try XCTUnwrap(scaled.pixel(x: x, y: y)), expected = try XCTUnwrap(reference.pixel(x: referenceX, y: referenceY))
                for (a, b, name, limit) in [(got.red, expected.red, "red", 6), (got.green, expected.green, "green", 6), (got.blue, expected.blue, "blue", 13)] {
                    XCTAssertLessThanOrEqual(abs(Int(a) - Int(b)), limit, "\(source) → \(output), bar \(bar): \(name) \(a), GStreamer's \(b)")
                }
            }
            pair.pipeline.stop()
        }
    } }

    /// People see themselves mirrored: the bars run the other way, blue first. Also shrunk to a
    /// thumbnail, which takes the other path.
    func test_mirrored_theBarsRunTheOtherWay_atEverySize() throws { try onMain {
        for output in [VideoFrameScaler.Size(width: 640, height: 360), .init(width: 430, height: 242), .init(width: 120, height: 68)] {
            let branch = try ScaledBranch(source: "videotestsrc is-live=true pattern=smpte ! video/x-raw,format=I420,width=640,height=360,framerate=30/1",
                                          mirrored: true)
            branch.scaler.outputSize = output
            try branch.pipeline.play()
            branch.arrives(at: output, "mirrored")
            let left = try XCTUnwrap(branch.last?.pixel(x: output.width / 14, y: output.height / 3))
            let right = try XCTUnwrap(branch.last?.pixel(x: output.width - output.width / 14, y: output.height / 3))
            XCTAssertTrue(left.blue > 150 && left.red < 60 && left.green < 60, "\(output): the left edge is not the blue bar: \(left)")
            XCTAssertTrue(right.red > 150 && right.green > 150 && right.blue > 150, "\(output): the right edge is not the grey bar: \(right)")
            branch.pipeline.stop()
        }
    } }

    /// Frames of one size reuse a few buffers (the one filled, the one waiting, the one shown,
    /// one a paint may hold) instead of allocating one each.
    func test_framesOfOneSize_reuseAFewBuffers() throws { try onMain {
        let branch = try ScaledBranch(source: "videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=640,height=360,framerate=60/1")
        branch.scaler.outputSize = .init(width: 862, height: 484)
        try branch.pipeline.play()
        XCTAssertTrue(runLoop(until: { branch.frames >= 60 }), "only \(branch.frames) frames")
        XCTAssertLessThanOrEqual(branch.scaler.buffersAllocated, 5, "\(branch.frames) frames")
        branch.pipeline.stop()
    } }

    /// A sender that steps down (a slower path: 640x360 to 320x180) leaves no work buffer of
    /// its larger frames behind: the scaler's work memory is what the frames now need. (It only
    /// grew before: in bench-media at N = 4, four work buffers of 0.9 MiB stayed for frames
    /// that had become 480x270.)
    func test_senderStepsDown_theWorkBuffersShrinkToTheNewFrames() throws { try onMain {
        let branch = try ScaledBranch(source: "videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! "
            + "videoscale ! capsfilter name=sent caps=\"video/x-raw,width=640,height=360\"")
        // A 4:3 tile larger than a quarter of the frame: the cut (480x360) is converted, then scaled.
        branch.scaler.outputSize = .init(width: 400, height: 300)
        try branch.pipeline.play()
        branch.arrives(at: .init(width: 400, height: 300), "the tile")
        XCTAssertEqual(branch.scaler.workBytes, 480 * 360 * 4, "given: the cut of a 640x360 frame, converted")

        branch.pipeline.set("caps", "video/x-raw,width=320,height=180", onElement: "sent")
        XCTAssertTrue(runLoop(until: { branch.pipeline.videoSize(ofElement: "sent")?.width == 320 }), "the sender's new size never came")
        branch.arrives(at: .init(width: 400, height: 300), "after the sender stepped down")
        branch.pipeline.stop()
        XCTAssertEqual(branch.scaler.workBytes, 240 * 180 * 4, "the work buffer of 640x360 frames was kept")
    } }

    /// A stopped picture (the lobby's preview during a call) keeps no buffers: neither the
    /// spare ones nor the one still shown once it is let go; the next frames allocate anew.
    func test_releaseMemory_keepsNoBuffer_evenThoseStillShown_untilFramesComeAgain() throws { try onMain {
        let branch = try ScaledBranch(source: "videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=640,height=360,framerate=60/1",
                                      mirrored: true)
        branch.scaler.outputSize = .init(width: 583, height: 328)
        try branch.pipeline.play()
        XCTAssertTrue(runLoop(until: { branch.frames >= 30 }), "only \(branch.frames) frames")
        branch.pipeline.stop()
        runLoop(until: { false }, timeout: 0.1)
        XCTAssertGreaterThan(branch.scaler.buffersKept, 0, "given: spare buffers kept for the next frames")
        XCTAssertNotNil(branch.last, "given: a frame still shown")
        let allocated = branch.scaler.buffersAllocated

        branch.scaler.releaseMemory()
        XCTAssertEqual(branch.scaler.buffersKept, 0)
        branch.forgetLastFrame()
        XCTAssertEqual(branch.scaler.buffersKept, 0, "the frame shown at the stop was kept when it was let go")

        // Started again, as the lobby's preview is after a call: a new pipeline, the same scaler.
        let again = try ScaledBranch(source: "videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=640,height=360,framerate=60/1",
                                     scaler: branch.scaler)
        try again.pipeline.play()
        XCTAssertTrue(runLoop(until: { again.frames >= 5 && again.size == .init(width: 583, height: 328) }),
                      "no frames after the memory was released")
        XCTAssertGreaterThan(branch.scaler.buffersAllocated, allocated, "frames after the release reused a buffer that was freed")
        again.pipeline.stop()
    } }
}

/// A running `source` ending in an I420 appsink whose frames a scaler makes, with the errors
/// it posted and the frames that came.
@MainActor
private final class ScaledBranch {
    let pipeline: MediaPipeline
    let scaler: VideoFrameScaler
    private(set) var errors: [String] = []
    private(set) var frames = 0
    private(set) var last: VideoFrame?
    /// Lets go of the last frame, as a picture does when it shows the next or is cleared.
    func forgetLastFrame() { last = nil }
    /// The last frame's size (0x0 before any).
    var size: VideoFrameScaler.Size { .init(width: last?.width ?? 0, height: last?.height ?? 0) }

    /// - Parameter scaler: one that made frames before (a preview started again); by default a new one.
    init(source: String, mirrored: Bool = false, scaler: VideoFrameScaler? = nil) throws {
        self.scaler = scaler ?? VideoFrameScaler(mirrored: mirrored)
        pipeline = try MediaPipeline(description: source + " ! videoconvert ! video/x-raw,format=I420 ! "
            + "appsink name=frames max-buffers=1 drop=true sync=false")
        pipeline.watchBus { [weak self] message in
            if case .error(let text, let debug, _, _) = message { self?.errors.append("\(text) \(debug ?? "")") }
        }
        pipeline.receiveVideoFrames(fromAppSink: "frames", scaledBy: self.scaler) { [weak self] frame in
            self?.frames += 1
            self?.last = frame
        }
    }

    func arrives(at expected: VideoFrameScaler.Size, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let before = frames
        XCTAssertTrue(runLoop(until: { self.size == expected && self.frames >= before + 3 }),
                      "\(what): frames stayed at \(size) (\(frames - before) new)", file: file, line: line)
    }
}

/// One test pattern, made by the scaler on one branch and by videoconvert (BGRA, unscaled) on another.
@MainActor
private final class ReferencePair {
    let pipeline: MediaPipeline
    let scaler = VideoFrameScaler()
    private(set) var scaled: VideoFrame?
    private(set) var reference: VideoFrame?

    init(pattern: String, size: VideoFrameScaler.Size) throws {
        pipeline = try MediaPipeline(description: "videotestsrc is-live=true pattern=\(pattern) ! "
            + "video/x-raw,format=I420,width=\(size.width),height=\(size.height),framerate=30/1 ! tee name=t "
            + "t. ! queue ! appsink name=scaled max-buffers=1 drop=true sync=false "
            + "t. ! queue ! videoconvert ! video/x-raw,format=BGRA ! appsink name=reference max-buffers=1 drop=true sync=false")
        pipeline.receiveVideoFrames(fromAppSink: "scaled", scaledBy: scaler) { [weak self] in self?.scaled = $0 }
        pipeline.receiveVideoFrames(fromAppSink: "reference") { [weak self] in self?.reference = $0 }
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
    mutating func next() -> VideoFrameScaler.Size { .init(width: draw(25..<450) * 2 + draw(0..<2), height: draw(25..<350) * 2 + draw(0..<2)) }
    /// 0, 20 or 100 ms.
    mutating func pause() -> Double { [0, 0.02, 0.1][draw(0..<3)] }
}
