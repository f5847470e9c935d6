@testable import ConfabMedia
import Foundation
import GLibBridge
import Logging
import XCTest

/// A camera whose stream stopped because caps could not be agreed is opened again, not taken
/// out for the call: nothing is wrong with the device (its size follows the views, and a size
/// asked for while the last one was still being agreed on can leave its chain with nothing to
/// agree on). Three times a minute; a fourth is a camera that keeps failing.
final class PublisherCameraRestart_Tests: XCTestCase {
    func test_cameraStoppedForWantOfCaps_isOpenedAgain_upToThreeTimesAMinute() throws { try onMain {
        let logger = Logger(label: "camera-restart-test")
        let configuration = CallMediaConfiguration(janusURL: "ws://127.0.0.1:9", room: 1, token: "", userID: "ada", sessionID: "ada-1")
        let speaker = try CallSpeaker(sink: "fakesink sync=true", logger: logger)
        let publisher = try Publisher(configuration: configuration,
                                      devices: CallMediaDevices(camera: TestDevice.camera.device, microphone: nil, speaker: nil),
                                      deviceSource: GStreamerDeviceSource(includeTestDevices: true),
                                      echoProbeName: speaker.echoProbeName, logger: logger)
        var failed: [String] = []
        publisher.onInputFailed = { device, text in failed.append("\(device.name): \(text)") }
        try publisher.pipeline.play()
        publisher.setSending(video: true)
        let frames = { publisher.pipeline.buffersArrived(atInputOf: "camera-tee") ?? 0 }
        XCTAssertTrue(runLoop(until: { frames() >= 3 }), "the camera gave nothing")

        for attempt in 1...4 {
            // What a racing change once left the camera's chain with, made certain: caps that
            // nothing in it can make, right after the source (the size filter would still take
            // the old caps for a while, `Publisher.cameraInputDescription`). The camera's
            // source stops with not-negotiated.
            let before = frames()
            publisher.pipeline.set("caps", "image/jpeg", onElement: "camera-source")
            if attempt <= 3 {
                XCTAssertTrue(runLoop(until: { frames() >= before + 10 }), "attempt \(attempt): the camera was not opened again (\(failed))")
                XCTAssertEqual(failed, [], "attempt \(attempt): a camera that stopped for want of caps was reported failed")
                XCTAssertTrue(publisher.isCameraOpen)
            } else {
                XCTAssertTrue(runLoop(until: { !failed.isEmpty }), "a camera stopping a fourth time within a minute should count as failed")
                XCTAssertFalse(publisher.isCameraOpen, "a failed camera is taken out")
            }
        }
        publisher.pipeline.stop()
        speaker.pipeline.stop()
    } }

    func test_restartAllowance_slidingWindow() {
        var allowance = RestartAllowance(limit: 3, within: .seconds(60))
        let start = ContinuousClock.now
        XCTAssertEqual((0..<4).map { allowance.take(at: start + .seconds($0)) }, [true, true, true, false])
        XCTAssertFalse(allowance.take(at: start + .seconds(59)))
        // The first was taken at +0: a minute later it no longer counts.
        XCTAssertTrue(allowance.take(at: start + .seconds(60)))
        XCTAssertFalse(allowance.take(at: start + .seconds(60.5)))
    }
}
