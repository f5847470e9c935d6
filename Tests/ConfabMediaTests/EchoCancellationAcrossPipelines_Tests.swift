import Foundation
import GLibBridge
import XCTest

/// The echo canceller's pairing rules as a call relies on them, with real GStreamer elements:
/// the speaker's `webrtcechoprobe` in one pipeline, the microphone's `webrtcdsp` in another. A
/// 440 Hz "far end" played through the probe comes back into the microphone ~50 ms later at
/// −6 dB, under a 1000 Hz "near end"; what leaves the DSP is measured around 440 Hz.
final class EchoCancellationAcrossPipelines_Tests: XCTestCase {
    private static var runs = 0

    @MainActor
    private func speaker(probe: String, channel: String) throws -> MediaPipeline {
        try MediaPipeline(description:
            "audiotestsrc is-live=true freq=440 volume=0.5 ! audio/x-raw,format=S16LE,rate=48000,channels=1 ! "
            + "webrtcechoprobe name=\(probe) ! tee name=t t. ! queue ! fakesink sync=true t. ! queue ! interaudiosink channel=\(channel)")
    }

    /// The room's sound (the speaker's, 40 ms later and halved) plus the near end, then the DSP
    /// with only echo cancellation, then the 440 Hz band's level.
    @MainActor
    private func microphone(probe: String, channel: String, cancelEcho: Bool) throws -> MediaPipeline {
        try MediaPipeline(description:
            "interaudiosrc channel=\(channel) period-time=10000000 latency-time=20000000 buffer-time=200000000 ! audioconvert ! "
            + "audio/x-raw,rate=48000,channels=1 ! identity ts-offset=40000000 ! volume volume=0.5 ! queue ! mix. "
            + "audiotestsrc is-live=true freq=1000 volume=0.25 ! audio/x-raw,rate=48000,channels=1 ! mix. "
            + "audiomixer name=mix start-time-selection=first ! audioconvert ! audio/x-raw,format=S16LE,rate=48000,channels=1 ! "
            + "webrtcdsp probe=\(probe) echo-cancel=\(cancelEcho) noise-suppression=false gain-control=false ! audioconvert ! "
            + "audiochebband lower-frequency=405 upper-frequency=475 poles=8 ! level name=echo interval=100000000 ! fakesink sync=false")
    }

    /// The median 440 Hz level (dBFS) leaving the DSP over 1.5 s once `settle` seconds passed.
    @MainActor
    private func echoLevel(of microphone: MediaPipeline, after settle: Double) -> Double? {
        var readings: [Double] = []
        let started = Date()
        microphone.watchBus { message in
            guard case .level(let reading) = message, Date().timeIntervalSince(started) > settle else { return }
            readings.append(reading.loudestRMS)
        }
        guard runLoop(until: { readings.count >= 15 }, timeout: settle + 8) else { return nil }
        return readings.sorted()[readings.count / 2]
    }

    @MainActor
    private func names() -> (probe: String, channel: String) {
        Self.runs += 1
        return ("pairing-test-probe-\(Self.runs)", "pairing-test-room-\(Self.runs)")
    }

    /// The far end comes back at this level without cancellation (the reference for both tests).
    @MainActor
    private func uncancelledEcho() throws -> Double {
        let (probe, channel) = names()
        let speaker = try speaker(probe: probe, channel: channel)
        try speaker.play()
        defer { speaker.stop() }
        let microphone = try microphone(probe: probe, channel: channel, cancelEcho: false)
        try microphone.play()
        defer { microphone.stop() }
        let level = try XCTUnwrap(echoLevel(of: microphone, after: 2.5), "the microphone pipeline measured nothing")
        XCTAssertGreaterThan(level, -25, "the echo did not reach the microphone (\(level) dBFS)")
        return level
    }

    /// GStreamer documents the pair for one top-level pipeline; a call needs two (the speaker
    /// outlives microphone changes), started at different moments.
    func test_probeAndDSPInPipelinesStartedSecondsApart_theEchoIsCancelledByAtLeast20dB() throws { try onMain {
        let kept = try uncancelledEcho()
        let (probe, channel) = names()
        let speaker = try speaker(probe: probe, channel: channel)
        try speaker.play()
        defer { speaker.stop() }
        MainLoop.iterate(until: { false }, timeout: 2)
        let microphone = try microphone(probe: probe, channel: channel, cancelEcho: true)
        try microphone.play()
        defer { microphone.stop() }
        let cancelled = try XCTUnwrap(echoLevel(of: microphone, after: 2.5), "the microphone pipeline measured nothing")
        XCTAssertGreaterThanOrEqual(kept - cancelled, 20, "echo at \(cancelled) dBFS with cancellation, \(kept) dBFS without")
    } }

    /// Why a speaker switch must keep the probe: the DSP takes its probe when it starts and
    /// never looks again, so a new probe (even of the same name) is not read and the echo passes.
    func test_probeRebuiltWhileTheDSPRuns_theEchoIsNoLongerCancelled() throws { try onMain {
        let kept = try uncancelledEcho()
        let (probe, channel) = names()
        let first = try speaker(probe: probe, channel: channel)
        try first.play()
        let microphone = try microphone(probe: probe, channel: channel, cancelEcho: true)
        try microphone.play()
        defer { microphone.stop() }
        MainLoop.iterate(until: { false }, timeout: 2)
        first.stop()
        let second = try speaker(probe: probe, channel: channel)
        try second.play()
        defer { second.stop() }
        let level = try XCTUnwrap(echoLevel(of: microphone, after: 2.5), "the microphone pipeline measured nothing")
        XCTAssertEqual(level, kept, accuracy: 6, "with its probe rebuilt the DSP still cancelled (\(level) dBFS; \(kept) dBFS uncancelled)")
    } }
}
