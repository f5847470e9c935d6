import ConfabCore
@testable import ConfabMedia
import GLibBridge
import Foundation
import XCTest

/// Real GStreamer pipelines with test sources standing in for devices.
final class LobbyMedia_Tests: XCTestCase {
    override func setUp() {
        MainActorMainLoopBridge.install()
        GStreamer.initialize()
    }

    override func tearDown() { MainActorMainLoopBridge.uninstall() }

    func test_testDevicesRequested_listsTestCameraMicrophonesAndSpeaker() { onMain {
        let source = GStreamerDeviceSource(includeTestDevices: true)
        var listed: [MediaDevice] = []
        source.startMonitoring { listed = $0 }
        defer { source.stopMonitoring() }
        let tests = listed.filter(\.isTest)
        XCTAssertEqual(tests.map(\.kind), [.camera, .microphone, .microphone, .speaker])
        XCTAssertEqual(tests.first?.name, "Test Camera (moving pattern)")
    } }

    func test_testDevicesNotRequested_listsNoTestDevices() { onMain {
        let source = GStreamerDeviceSource(includeTestDevices: false)
        var listed: [MediaDevice] = [TestDevice.camera.device]
        source.startMonitoring { listed = $0 }
        defer { source.stopMonitoring() }
        XCTAssertTrue(listed.allSatisfy { !$0.isTest })
    } }

    func test_testCameraPreview_deliversScaledFrames_andStopReleasesPipeline() { onMain {
        let pipelinesBefore = MediaPipeline.liveCount
        let devices = GStreamerDeviceSource(includeTestDevices: true)
        let preview = CameraPreview(devices: devices, size: .init(width: 320, height: 240))
        var frames: [VideoFrame] = []
        var failure: String?
        preview.onFrame = { frames.append($0) }
        preview.startPreview(TestDevice.camera.device) { failure = $0 }

        XCTAssertTrue(runLoop(until: { frames.count >= 10 || failure != nil }), "no frames arrived")
        XCTAssertNil(failure)
        XCTAssertEqual(frames.last?.width, 320)
        XCTAssertEqual(frames.last?.height, 240)
        XCTAssertEqual(frames.last?.pixel(x: 0, y: 0)?.alpha, 255)
        XCTAssertEqual(MediaPipeline.liveCount, pipelinesBefore + 1)

        preview.stopPreview()
        frames.removeAll()
        XCTAssertFalse(preview.isRunning)
        XCTAssertEqual(MediaPipeline.liveCount, pipelinesBefore, "the preview pipeline outlived stopPreview()")
        runLoop(until: { false }, timeout: 0.3)
        XCTAssertEqual(frames.count, 0, "frames kept coming after stopPreview()")
    } }

    func test_preview_isMirrored() { onMain {
        let devices = GStreamerDeviceSource(includeTestDevices: false)
        // SMPTE bars run from white on the left to blue on the right.
        let bars = devices.addSyntheticDevice(id: "test:bars", name: "Bars", kind: .camera, source: "videotestsrc is-live=true pattern=smpte")
        let preview = CameraPreview(devices: devices, size: .init(width: 320, height: 240))
        var last: VideoFrame?
        preview.onFrame = { last = $0 }
        preview.startPreview(bars) { XCTFail($0) }
        defer { preview.stopPreview() }
        XCTAssertTrue(runLoop(until: { last != nil }), "no frames arrived")
        let left = try? XCTUnwrap(last?.pixel(x: 4, y: 20)), right = try? XCTUnwrap(last?.pixel(x: 315, y: 20))
        XCTAssertGreaterThan(Int(left?.blue ?? 0), Int(left?.red ?? 0) + 100, "the left edge should show the blue bar: \(String(describing: left))")
        XCTAssertGreaterThan(Int(right?.red ?? 0), 150, "the right edge should show the white bar: \(String(describing: right))")
        XCTAssertGreaterThan(Int(right?.green ?? 0), 150)
    } }

    func test_toneAtHalfAmplitude_metersAboutMinus9dB() { onMain {
        let levels = meter(TestDevice.toneMicrophone.device, readings: 8)
        // A 0.5-amplitude sine has RMS 0.354 → 20·log10(0.354) = −9.03 dBFS. Skip the first reading (start-up).
        for level in levels.dropFirst() { XCTAssertEqual(level, -9.03, accuracy: 0.5) }
    } }

    func test_volumeZero_metersSilence_andCheckerReportsIt() { onMain {
        let levels = meter(TestDevice.silentMicrophone.device, readings: 5)
        XCTAssertTrue(levels.allSatisfy { $0 < -100 }, "\(levels)")
        let checker = MicrophoneChecker(valueLimit: 5)
        levels.forEach(checker.record(decibels:))
        XCTAssertTrue(checker.isSilent)
    } }

    func test_unknownDevice_reportsFailureInsteadOfCrashing() { onMain {
        let devices = GStreamerDeviceSource(includeTestDevices: false)
        let meter = MicrophoneMeter(devices: devices)
        var failure: String?
        meter.startMetering(MediaDevice(id: "gone", name: "USB Headset", kind: .microphone), onLevel: { _ in }) { failure = $0 }
        XCTAssertEqual(failure, "USB Headset is no longer connected.")
        XCTAssertFalse(meter.isRunning)
    } }

    @MainActor
    private func meter(_ microphone: MediaDevice, readings count: Int) -> [Double] {
        let pipelinesBefore = MediaPipeline.liveCount
        let meter = MicrophoneMeter(devices: GStreamerDeviceSource(includeTestDevices: true))
        var levels: [Double] = []
        var failure: String?
        meter.startMetering(microphone, onLevel: { levels.append($0) }, onFailure: { failure = $0 })
        XCTAssertTrue(runLoop(until: { levels.count >= count || failure != nil }), "no level readings")
        XCTAssertNil(failure)
        meter.stopMetering()
        XCTAssertEqual(MediaPipeline.liveCount, pipelinesBefore)
        return levels
    }
}

final class CallSoundPlayer_Tests: XCTestCase {
    override func setUp() { MainActorMainLoopBridge.install(); GStreamer.initialize() }
    override func tearDown() { MainActorMainLoopBridge.uninstall() }

    func test_synthesisedRing_isValidWAVOfExpectedLength() {
        let wav = RingToneSynthesizer.wav(for: .outgoingRing)
        XCTAssertEqual(String(decoding: wav.prefix(4), as: UTF8.self), "RIFF")
        // 6 s of 16-bit mono at 48 kHz, plus the 44-byte header.
        XCTAssertEqual(wav.count, 44 + 6 * 48_000 * 2)
    }

    func test_play_thenStateChange_switchesAndStopsPipelines() { onMain {
        let before = MediaPipeline.liveCount
        let player = CallSoundPlayer(directory: FileManager.default.temporaryDirectory.appendingPathComponent("confab-sound-test-\(UUID())"))
        let speaker = MediaDevice(id: "test:speaker", name: "Test", kind: .speaker, isTest: true)
        player.play(.incomingRing, speaker: speaker)
        XCTAssertEqual(player.playing, .incomingRing)
        XCTAssertEqual(MediaPipeline.liveCount, before + 1)
        runLoop(until: { false }, timeout: 0.3)
        player.play(.outgoingRing, speaker: speaker)
        XCTAssertEqual(player.playing, .outgoingRing)
        XCTAssertEqual(MediaPipeline.liveCount, before + 1, "one sound at a time")
        player.play(nil, speaker: speaker)
        XCTAssertNil(player.playing)
        XCTAssertEqual(MediaPipeline.liveCount, before)
    } }
}
