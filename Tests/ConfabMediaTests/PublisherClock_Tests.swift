@testable import ConfabMedia
import Foundation
import GLibBridge
import Logging
import XCTest

/// A microphone whose element offers the pipeline its clock (a sound server's or a sound card's
/// source; ALSA's null device stands in, it offers one as they do) is replaced while the call
/// sends. The pipeline took that element's clock when it started; taken out, the clock stopped
/// with it, and the camera and everything sent stood still: bob heard nothing and the camera
/// was reported as giving no picture (UI `AChosenMicrophonePluggedBackIn`: the sound server's
/// microphone replaced when the chosen headset was pulled out). The publisher's pipeline now
/// runs on the system clock. (ALSA's null device is no clock to run on: it gives its sound as
/// fast as it is read, so the standstill itself cannot be shown with it; the UI test shows it.
/// The speaker's pipeline, given ALSA's null sink, ran on the system clock already.)
final class PublisherClock_Tests: XCTestCase {
    func test_aMicrophoneThatOffersAClock_theCallRunsOnTheSystemClock_andGoesOnWhenItIsReplaced() throws { try onMain {
        guard GStreamer.hasElement("alsasrc") else { throw XCTSkip("SKIPPED: no alsasrc (gstreamer1.0-alsa; install-deps installs it)") }
        let logger = Logger(label: "publisher-clock-test")
        let configuration = CallMediaConfiguration(janusURL: "ws://127.0.0.1:9", room: 1, token: "", userID: "ada", sessionID: "ada-1")
        let speaker = try CallSpeaker(sink: "fakesink sync=true", logger: logger)
        let devices = GStreamerDeviceSource(includeTestDevices: true)
        let clockGiving = devices.addSyntheticDevice(id: "test:alsa-null", name: "A sound card", kind: .microphone, source: "alsasrc device=null")
        let publisher = try Publisher(configuration: configuration,
                                      devices: CallMediaDevices(camera: TestDevice.camera.device, microphone: clockGiving, speaker: nil),
                                      deviceSource: devices, echoProbeName: speaker.echoProbeName, logger: logger)
        var failed: [String] = []
        publisher.onInputFailed = { device, text in failed.append("\(device.name): \(text)") }
        // Opened before the pipeline plays, as a join does (`Publisher.start`): the pipeline
        // takes its clock from what is in it then.
        publisher.use(camera: nil, microphone: clockGiving)
        try publisher.pipeline.play()
        publisher.setSending(audio: true, video: true)
        XCTAssertTrue(runLoop(until: { publisher.pipeline.runsOnTheSystemClock }), "the call runs on the microphone's clock")
        let frames = { publisher.pipeline.buffersArrived(atInputOf: "camera-tee") ?? 0 }
        XCTAssertTrue(runLoop(until: { frames() >= 10 }), "the camera gave nothing")

        publisher.use(camera: TestDevice.camera.device, microphone: TestDevice.toneMicrophone.device)
        let afterSwitch = frames()
        XCTAssertTrue(runLoop(until: { frames() >= afterSwitch + 30 }),
                      "the camera stood still after the microphone that gave the clock was replaced (\(frames() - afterSwitch) frames in 10 s)")
        XCTAssertEqual(failed, [])
        publisher.pipeline.stop()
        speaker.pipeline.stop()
    } }
}
