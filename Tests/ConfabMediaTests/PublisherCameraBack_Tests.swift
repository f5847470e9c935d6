import ConfabCore
@testable import ConfabMedia
import Foundation
import GLibBridge
import XCTest

/// A camera that comes back (turned on again, another one chosen, or opened again after it
/// stopped) is attached to the running send chain, and the publisher asks the encoder for a
/// keyframe so that the others see it at once: without one, their decoders wait for the
/// encoder's own next keyframe, up to 2 s away. Seen as a user: the other side showed the
/// camera 2.3–2.9 s after it was turned on (0.3–0.5 s to show it off).
final class PublisherCameraBack_Tests: XCTestCase {
    func test_cameraAttachedAgain_theFirstFrameSentIsAKeyframe() throws { try onMain {
        let step = SendRateController.ladder[2]
        // The publisher's send chain behind the camera's tee, its camera attached as it does.
        let pipeline = try MediaPipeline(description:
            "tee name=camera-tee camera-tee. ! queue leaky=downstream max-size-buffers=2 ! \(Publisher.adaptiveVideoChain(step)) ! "
            + "valve name=video-valve drop=false ! "
            + "\(Publisher.videoEncoderDescription(step, framerate: 30, bitrate: 500_000)) ! fakesink name=sent sync=false async=false")
        let camera = Publisher.cameraInputDescription("videotestsrc is-live=true pattern=ball", size: step.size, framerate: 30)
        pipeline.countBuffers(atInputOf: "sent")
        let sent = { pipeline.buffersArrived(atInputOf: "sent") ?? 0 }
        let lastKeyframe = { pipeline.lastKeyframe(atInputOf: "sent") ?? 0 }
        try pipeline.attachInput(named: "camera-input", description: camera, to: "camera-tee")
        try pipeline.play()
        XCTAssertTrue(runLoop(until: { sent() >= 10 }), "nothing encoded")
        XCTAssertEqual(lastKeyframe(), 1, "the stream should start with a keyframe")

        for round in 1...3 {
            // Off, as `Publisher.setSending(video: false)`: the valve closes, the camera goes.
            pipeline.set("drop", "true", onElement: "video-valve")
            pipeline.detachInput(named: "camera-input")
            runLoop(until: { false }, timeout: 0.7)
            // On again, as `setSending(video: true)`: the valve opens, the camera is attached and
            // a keyframe asked for.
            let before = sent()
            pipeline.set("drop", "false", onElement: "video-valve")
            try pipeline.attachInput(named: "camera-input", description: camera, to: "camera-tee")
            pipeline.requestKeyframe(upstreamOf: "sent")
            XCTAssertTrue(runLoop(until: { sent() >= before + 5 }), "round \(round): nothing encoded after the camera came back")
            XCTAssertEqual(lastKeyframe(), before + 1,
                           "round \(round): the first frame sent after the camera came back should be a keyframe "
                           + "(\(sent() - before) sent since, the last keyframe \(lastKeyframe() > before ? "the \(lastKeyframe() - before)th of them" : "before them"))")
        }
        pipeline.stop()
    } }
}
