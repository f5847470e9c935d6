import Foundation
import GLibBridge
import XCTest

/// Inputs attached to and taken out of a running pipeline (how a call swaps cameras and closes
/// a camera that is turned off), with real GStreamer test sources.
final class PipelineInputs_Tests: XCTestCase {
    private static let sink = "identity name=input-point ! videoconvert ! video/x-raw,format=BGRA,width=64,height=48 ! "
        + "appsink name=frames max-buffers=1 drop=true sync=false"

    private static func camera(argb: String) -> String {
        "videotestsrc is-live=true pattern=solid-color foreground-color=\(argb) name=camera-source ! "
            + "capsfilter caps=\"video/x-raw,width=64,height=48,framerate=30/1\""
    }

    func test_inputSwappedWhilePlaying_framesComeFromTheNewOne_detachStopsThemAndReleasesTheSource() throws { try onMain {
        let pipeline = try MediaPipeline(description: Self.sink)
        var frames = 0
        var lastRed: UInt8 = 0, lastGreen: UInt8 = 0
        pipeline.receiveVideoFrames(fromAppSink: "frames") { frame in
            frames += 1
            if let pixel = frame.pixel(x: 32, y: 24) { (lastRed, lastGreen) = (pixel.red, pixel.green) }
        }
        try pipeline.attachInput(named: "camera", description: Self.camera(argb: "0xffff0000"), to: "input-point")
        try pipeline.play()
        XCTAssertTrue(runLoop(until: { frames >= 5 }), "no frames from the first input")
        XCTAssertEqual(lastRed, 255)
        XCTAssertTrue(pipeline.hasElement(named: "camera-source"))

        // Swapped while playing: the new input's frames follow.
        try pipeline.attachInput(named: "camera", description: Self.camera(argb: "0xff00ff00"), to: "input-point")
        let atSwap = frames
        XCTAssertTrue(runLoop(until: { frames >= atSwap + 5 && lastGreen == 255 }), "no frames from the second input")
        XCTAssertEqual(lastRed, 0)

        // Taken out: nothing more arrives, and its source is gone from the pipeline.
        pipeline.detachInput(named: "camera")
        XCTAssertFalse(pipeline.hasElement(named: "camera-source"))
        runLoop(until: { false }, timeout: 0.2)
        let afterDetach = frames
        runLoop(until: { false }, timeout: 0.5)
        XCTAssertEqual(frames, afterDetach, "frames kept coming after the input was taken out")

        // And back again.
        try pipeline.attachInput(named: "camera", description: Self.camera(argb: "0xffff0000"), to: "input-point")
        XCTAssertTrue(runLoop(until: { frames >= afterDetach + 5 && lastRed == 255 }), "no frames after attaching again")
        pipeline.stop()
    } }

    func test_attachInput_unknownElement_throwsAndLeavesThePipelineRunning() throws { try onMain {
        let pipeline = try MediaPipeline(description: Self.sink)
        try pipeline.play()
        XCTAssertThrowsError(try pipeline.attachInput(named: "camera", description: "no-such-element", to: "input-point"))
        XCTAssertThrowsError(try pipeline.attachInput(named: "camera", description: Self.camera(argb: "0xffff0000"), to: "missing"))
        XCTAssertFalse(pipeline.hasElement(named: "camera"))
        XCTAssertTrue(pipeline.isPlaying)
        pipeline.stop()
    } }

    /// What the elements of one kind give out, inside bins too (a receiving connection's packets
    /// at webrtcbin's own `nicesrc`, `ReceiverWatch`): every one of them counted, together.
    func test_countOutput_ofEveryElementOfAKind_insideBinsToo() throws { try onMain {
        let pipeline = try MediaPipeline(description: "bin ( audiotestsrc num-buffers=5 ! fakesink ) "
            + "audiotestsrc num-buffers=3 ! fakesink videotestsrc num-buffers=7 ! fakesink")
        XCTAssertNil(pipeline.outputCount(ofEvery: "audiotestsrc"), "counted before asked")
        XCTAssertEqual(pipeline.countOutput(ofEvery: "audiotestsrc"), 2)
        XCTAssertEqual(pipeline.countOutput(ofEvery: "audiotestsrc"), 0, "counted twice")
        try pipeline.play()
        XCTAssertTrue(runLoop(until: { pipeline.outputCount(ofEvery: "audiotestsrc") == 8 }),
                      "counted \(pipeline.outputCount(ofEvery: "audiotestsrc") ?? -1) of the two sources' 8 buffers")
        runLoop(until: { false }, timeout: 0.2)
        XCTAssertEqual(pipeline.outputCount(ofEvery: "audiotestsrc"), 8, "the video source's buffers were counted")
        pipeline.stop()
    } }
}
