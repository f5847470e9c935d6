import ConfabCore
@testable import ConfabMedia
import Foundation
import GLibBridge
import XCTest

/// The publisher's self-view branch converts the camera only while someone shows it (issue 15),
/// and the camera's frames are counted where they enter, so a camera nobody looks at still
/// counts as running (the stuck-camera watchdog reads that count).
final class SelfViewBranch_Tests: XCTestCase {
    func test_closedUntilShown_cameraStillCounted_thenFramesComeMirrored() throws { try onMain {
        // A test camera showing colour bars (grey at its left edge, blue at its right) tee'd to
        // the branch, as in the publisher.
        let pipeline = try MediaPipeline(description:
            "videotestsrc is-live=true pattern=smpte ! "
            + "video/x-raw,format=I420,width=64,height=36,framerate=30/1 ! tee name=camera-tee "
            + "camera-tee. ! \(Publisher.selfViewBranch)")
        var frames: [VideoFrame] = []
        let scaler = VideoFrameScaler(mirrored: true)
        scaler.outputSize = .init(width: 32, height: 18)
        pipeline.receiveVideoFrames(fromAppSink: "self-view", scaledBy: scaler) { frames.append($0) }
        pipeline.countBuffers(atInputOf: "camera-tee")
        try pipeline.play()

        // Nobody shows it: the camera runs (counted), nothing is converted for the view.
        XCTAssertTrue(runLoop(until: { (pipeline.buffersArrived(atInputOf: "camera-tee") ?? 0) >= 10 }), "the camera's frames were not counted")
        XCTAssertEqual(frames.count, 0, "frames were converted for a self-view nobody shows")

        // Shown: frames come, at the scaler's size, mirrored (blue on the left), converted (the
        // caps the closed valve held back were sent again, or nothing could be).
        pipeline.set("drop", "false", onElement: "self-view-valve")
        XCTAssertTrue(runLoop(until: { frames.count >= 3 }), "no frames once the self-view was shown")
        XCTAssertEqual(frames.last?.width, 32)
        XCTAssertEqual(frames.last?.height, 18)
        let left = try XCTUnwrap(frames.last?.pixel(x: 1, y: 2))
        XCTAssertGreaterThan(Int(left.blue), 150)
        XCTAssertLessThan(Int(left.red), 60, "the self-view is not mirrored (grey at the left, as the camera has it)")

        // Hidden again: frames stop, the count goes on.
        pipeline.set("drop", "true", onElement: "self-view-valve")
        runLoop(until: { false }, timeout: 0.2)
        let shown = frames.count, counted = pipeline.buffersArrived(atInputOf: "camera-tee") ?? 0
        runLoop(until: { false }, timeout: 0.5)
        XCTAssertEqual(frames.count, shown, "frames kept coming for a hidden self-view")
        XCTAssertGreaterThan(pipeline.buffersArrived(atInputOf: "camera-tee") ?? 0, counted + 5)
        XCTAssertNil(pipeline.buffersArrived(atInputOf: "self-view"), "an element nobody counts has no count")
        pipeline.stop()
    } }

    /// In a big call the self-view shows every other camera frame (SelfViewRate): the others
    /// are dropped as they enter the branch, and the camera itself keeps all of its frames.
    func test_frameStepTwo_showsHalfTheCameraFrames_thenAllAgain() throws { try onMain {
        let pipeline = try MediaPipeline(description:
            "videotestsrc is-live=true pattern=smpte ! "
            + "video/x-raw,format=I420,width=64,height=36,framerate=30/1 ! tee name=camera-tee "
            + "camera-tee. ! \(Publisher.selfViewBranch)")
        pipeline.countBuffers(atInputOf: "camera-tee")
        // Counted where frames reach the appsink, on the streaming thread: what the branch made.
        pipeline.countBuffers(atInputOf: "self-view")
        pipeline.set("drop", "false", onElement: "self-view-valve")
        try pipeline.play()
        XCTAssertTrue(runLoop(until: { (pipeline.buffersArrived(atInputOf: "self-view") ?? 0) >= 3 }), "no self-view frames")

        /// Camera frames and self-view frames over the next second.
        @MainActor func countOverASecond() -> (camera: Int, shown: Int) {
            let camera = pipeline.buffersArrived(atInputOf: "camera-tee") ?? 0, shown = pipeline.buffersArrived(atInputOf: "self-view") ?? 0
            runLoop(until: { false }, timeout: 1)
            return ((pipeline.buffersArrived(atInputOf: "camera-tee") ?? 0) - camera, (pipeline.buffersArrived(atInputOf: "self-view") ?? 0) - shown)
        }
        pipeline.letThrough(oneBufferIn: 2, atInputOf: "self-view-valve")
        runLoop(until: { false }, timeout: 0.2)
        let halved = countOverASecond()
        XCTAssertGreaterThan(halved.camera, 20, "the camera slowed down with the self-view")
        XCTAssertEqual(Double(halved.shown), Double(halved.camera) / 2, accuracy: 2,
                       "every other frame should reach the self-view (\(halved.shown) of \(halved.camera))")

        pipeline.letThrough(oneBufferIn: 1, atInputOf: "self-view-valve")
        runLoop(until: { false }, timeout: 0.2)
        let all = countOverASecond()
        XCTAssertEqual(all.shown, all.camera, accuracy: 2, "all frames again (\(all.shown) of \(all.camera))")
        pipeline.stop()
    } }
}
