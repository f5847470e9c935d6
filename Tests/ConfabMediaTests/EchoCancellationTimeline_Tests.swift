import Foundation
import GLibBridge
import XCTest

/// The echo canceller across two pipelines, as a call has them (the speaker's probe in one,
/// the microphone's DSP in the other), with real GStreamer elements: a 440 Hz "far end" played
/// through the probe comes back into a microphone ~50 ms later at −6 dB, under a 1000 Hz
/// "near end"; what leaves the DSP is measured in a band around 440 Hz.
final class EchoCancellationTimeline_Tests: XCTestCase {
    private static var runs = 0

    @MainActor
    private func speaker(probe: String, channel: String) throws -> MediaPipeline {
        try MediaPipeline(description:
            "audiotestsrc is-live=true freq=440 volume=0.5 ! audio/x-raw,format=S16LE,rate=48000,channels=1 ! "
            + "webrtcechoprobe name=\(probe) ! tee name=t t. ! queue ! fakesink sync=true t. ! queue ! interaudiosink channel=\(channel)")
    }

    /// The microphone: the room's sound (the speaker's, 40 ms later and halved) plus the near
    /// end, then the DSP with only echo cancellation, then the 440 Hz band's level.
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

    /// The median 440 Hz level (dBFS) leaving the DSP between 2.5 s and 4 s after the microphone started.
    @MainActor
    private func echoLevel(sharedTimeline: Bool, cancelEcho: Bool, microphoneStartsAfter delay: Double) throws -> Double {
        Self.runs += 1
        let probe = "timeline-test-probe-\(Self.runs)", channel = "timeline-test-room-\(Self.runs)"
        let timeline = MediaTimeline()
        let speaker = try speaker(probe: probe, channel: channel)
        if sharedTimeline { speaker.follow(timeline) }
        try speaker.play()
        defer { speaker.stop() }
        MainLoop.iterate(until: { false }, timeout: delay)
        let microphone = try microphone(probe: probe, channel: channel, cancelEcho: cancelEcho)
        if sharedTimeline { microphone.follow(timeline) }
        var readings: [Double] = []
        let started = Date()
        microphone.watchBus { message in
            guard case .level(let reading) = message else { return }
            let elapsed = Date().timeIntervalSince(started)
            if elapsed > 2.5 { readings.append(reading.loudestRMS) }
        }
        try microphone.play()
        defer { microphone.stop() }
        XCTAssertTrue(runLoop(until: { readings.count >= 15 }, timeout: 10), "the microphone pipeline measured nothing")
        return readings.sorted()[readings.count / 2]
    }

    func test_sharedTimeline_theEchoIsCancelledByAtLeast20dB() throws { try onMain {
        let kept = try echoLevel(sharedTimeline: true, cancelEcho: false, microphoneStartsAfter: 0.5)
        let cancelled = try echoLevel(sharedTimeline: true, cancelEcho: true, microphoneStartsAfter: 0.5)
        XCTAssertGreaterThan(kept, -25, "the echo did not reach the microphone (\(kept) dBFS)")
        XCTAssertGreaterThanOrEqual(kept - cancelled, 20, "echo at \(cancelled) dBFS with cancellation, \(kept) dBFS without")
    } }

    /// Why `MediaTimeline` exists: pipelines started at different moments have different base
    /// times, the probe's and the DSP's running times never line up, and nothing is cancelled.
    func test_separateTimelines_theEchoIsNotCancelled() throws { try onMain {
        let kept = try echoLevel(sharedTimeline: true, cancelEcho: false, microphoneStartsAfter: 0.5)
        let separate = try echoLevel(sharedTimeline: false, cancelEcho: true, microphoneStartsAfter: 0.5)
        XCTAssertLessThan(kept - separate, 6, "echo cancelled across separate timelines (\(separate) vs \(kept) dBFS): MediaTimeline may be unnecessary")
    } }
}
