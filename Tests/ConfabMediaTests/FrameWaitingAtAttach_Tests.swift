import Foundation
import GLibBridge
import XCTest

/// A frame that reached the appsink before anyone listened (a call's first remote frame,
/// decoded while the main loop was busy showing the call page) is shown, not skipped.
final class FrameWaitingAtAttach_Tests: XCTestCase {
    /// One frame only, in I420 as the receivers decode it, then the stream ends: with the old
    /// mailbox nothing was ever delivered (the appsink calls back only for frames that come
    /// after its callback is installed).
    private static let oneFrame = "videotestsrc num-buffers=1 pattern=solid-color foreground-color=0xff0000ff ! "
        + "video/x-raw,format=I420,width=64,height=36 ! appsink name=frames max-buffers=1 drop=true sync=false"

    func test_frameWaitingWhenReceivingStarts_isDelivered_scaledForTheView() throws { try onMain {
        let pipeline = try MediaPipeline(description: Self.oneFrame)
        try pipeline.play()
        // The frame reaches the appsink on the streaming thread while this (main) thread is
        // elsewhere: nothing here listens yet.
        runLoop(until: { false }, timeout: 0.5)
        let scaler = VideoFrameScaler()
        scaler.outputSize = VideoFrameScaler.Size(width: 32, height: 18)
        var frames: [VideoFrame] = []
        pipeline.receiveVideoFrames(fromAppSink: "frames", scaledBy: scaler) { frames.append($0) }
        XCTAssertTrue(runLoop(until: { !frames.isEmpty }, timeout: 2), "the frame waiting in the appsink was never delivered")
        runLoop(until: { false }, timeout: 0.2)
        XCTAssertEqual(frames.count, 1, "the one frame made should be delivered exactly once")
        let frame = try XCTUnwrap(frames.first)
        XCTAssertEqual(frame.width, 32)
        XCTAssertEqual(frame.height, 18)
        let pixel = try XCTUnwrap(frame.pixel(x: 16, y: 9))
        XCTAssertGreaterThan(pixel.blue, 200, "not the source's blue: \(pixel)")
        XCTAssertLessThan(pixel.red, 40, "not the source's blue: \(pixel)")
        pipeline.stop()
    } }

    func test_streamAlreadyFlowing_framesKeepComingInOrder_afterTheWaitingOne() throws { try onMain {
        // A live source: frames keep arriving while (and after) receiving starts; the waiting
        // one goes first and the callback's follow, none of them lost for good.
        let pipeline = try MediaPipeline(description: "videotestsrc is-live=true pattern=ball ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! "
            + "appsink name=frames max-buffers=1 drop=true sync=false")
        try pipeline.play()
        runLoop(until: { false }, timeout: 0.3)
        var frames = 0
        pipeline.receiveVideoFrames(fromAppSink: "frames") { _ in frames += 1 }
        XCTAssertTrue(runLoop(until: { frames >= 10 }, timeout: 3), "frames stopped after the waiting one: \(frames)")
        pipeline.stop()
    } }
}
