import ConfabCore
@testable import ConfabMedia
import Foundation
import GLibBridge
import XCTest

/// A media server that cannot be reached leaves the call without a media session between its
/// tries (up to 8 s apart, for as long as it is away). The self-view stood still on its last
/// frame meanwhile; it now shows the camera until the next session opens it.
final class SelfViewBetweenSessions_Tests: XCTestCase {
    override func setUp() {
        MainActorMainLoopBridge.install()
        GStreamer.initialize()
    }

    override func tearDown() { MainActorMainLoopBridge.uninstall() }

    @MainActor
    private func makeEngine() -> GStreamerCallMediaEngine {
        GStreamerCallMediaEngine(deviceSource: GStreamerDeviceSource(includeTestDevices: true), userID: "ada") { _ in
            CallMediaDevices(camera: TestDevice.camera.device, microphone: nil, speaker: nil)
        }
    }

    /// Starts `engine` on a media server nobody listens at (port 9 refuses at once); returns
    /// whether the start failed, as it must.
    @MainActor
    private func startOnNothing(_ engine: GStreamerCallMediaEngine, thenStop: Bool = false) -> Bool {
        var failed: Bool?
        Task {
            do {
                try await engine.start(call: CallID(type: .default, id: "between"),
                                       endpoint: MediaEndpointInfo(url: "ws://127.0.0.1:9", room: 1, token: ""),
                                       sessionID: "ada-1", settings: CallSettings(), onUpdate: { _ in }, onFailure: { _ in })
                failed = false
            } catch {
                failed = true
            }
        }
        // The call ended while the start waited for the media server.
        if thenStop { Task { await engine.stop() } }
        XCTAssertTrue(runLoop(until: { failed != nil }), "the start never ended")
        return failed == true
    }

    @MainActor
    private func stop(_ engine: GStreamerCallMediaEngine) {
        var stopped = false
        Task { await engine.stop(); stopped = true }
        XCTAssertTrue(runLoop(until: { stopped }))
    }

    func test_startFailed_theSelfViewKeepsMoving_followsTheCameraToggle_andStopsWithTheCall() { onMain {
        let pipelinesBefore = MediaPipeline.liveCount
        let engine = makeEngine()
        var frames: [VideoFrame] = []
        let watch = engine.watchSelfView { frames.append($0) }
        defer { watch.cancel() }

        XCTAssertTrue(startOnNothing(engine), "a start on a media server nobody listens at connected")
        let afterFailure = frames.count
        XCTAssertTrue(runLoop(until: { frames.count >= afterFailure + 15 }, timeout: 5),
                      "the self-view stood still without a media session (\(frames.count - afterFailure) frames)")
        XCTAssertTrue(engine.isShowingSelfViewBetweenSessions)

        // The camera turned off meanwhile: it closes, and nothing more is shown.
        engine.setVideoEnabled(false)
        XCTAssertFalse(engine.isShowingSelfViewBetweenSessions)
        XCTAssertEqual(MediaPipeline.liveCount, pipelinesBefore, "the camera stayed open while turned off")
        let whileOff = frames.count
        runLoop(until: { false }, timeout: 0.5)
        XCTAssertEqual(frames.count, whileOff, "frames came while the camera was off")

        engine.setVideoEnabled(true)
        XCTAssertTrue(runLoop(until: { frames.count >= whileOff + 10 }, timeout: 5), "the self-view did not come back with the camera")
        // A device came or went (the same camera still chosen): the self-view goes on.
        engine.devicesChanged()
        let afterDevices = frames.count
        XCTAssertTrue(runLoop(until: { frames.count >= afterDevices + 10 }, timeout: 5), "the self-view stopped when the devices changed")
        XCTAssertEqual(MediaPipeline.liveCount, pipelinesBefore + 1)

        // The call ends: the camera closes.
        stop(engine)
        XCTAssertFalse(engine.isShowingSelfViewBetweenSessions)
        XCTAssertEqual(MediaPipeline.liveCount, pipelinesBefore, "a pipeline outlived the call")
        let afterStop = frames.count
        runLoop(until: { false }, timeout: 0.5)
        XCTAssertEqual(frames.count, afterStop, "frames came after the call ended")
    } }

    func test_nobodyShowsTheSelfView_theCameraStaysClosed() { onMain {
        let pipelinesBefore = MediaPipeline.liveCount
        let engine = makeEngine()
        XCTAssertTrue(startOnNothing(engine))
        XCTAssertFalse(engine.isShowingSelfViewBetweenSessions)
        XCTAssertEqual(MediaPipeline.liveCount, pipelinesBefore)

        // Shown again (the call window restored): the camera opens for it, and closes when hidden.
        var frames = 0
        let watch = engine.watchSelfView { _ in frames += 1 }
        XCTAssertTrue(runLoop(until: { frames >= 10 }, timeout: 5), "the self-view shown between sessions stood still")
        watch.cancel()
        XCTAssertFalse(engine.isShowingSelfViewBetweenSessions)
        XCTAssertEqual(MediaPipeline.liveCount, pipelinesBefore)
        stop(engine)
    } }

    func test_theCallEndsWhileTheStartWaits_theCameraStaysClosed() { onMain {
        let pipelinesBefore = MediaPipeline.liveCount
        let engine = makeEngine()
        var frames = 0
        let watch = engine.watchSelfView { _ in frames += 1 }
        defer { watch.cancel() }
        _ = startOnNothing(engine, thenStop: true)
        runLoop(until: { false }, timeout: 0.2)
        XCTAssertFalse(engine.isShowingSelfViewBetweenSessions, "the camera was opened for a call that had ended")
        XCTAssertEqual(MediaPipeline.liveCount, pipelinesBefore)
        let settled = frames
        runLoop(until: { false }, timeout: 0.5)
        XCTAssertEqual(frames, settled, "frames came after the call ended")
    } }
}
