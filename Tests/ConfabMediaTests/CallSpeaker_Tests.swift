import ConfabTestSupport
@testable import ConfabMedia
import Foundation
@testable import GLibBridge
import Logging
import XCTest

/// The speaker's hand-over from a participant's receiver, with real pipelines: a receiver
/// whose thread stalls once (a busy machine) must not leave its sound late for the rest of the
/// call.
final class CallSpeaker_Tests: XCTestCase {
    /// The receiver: 0.1 s ticks of 1 kHz, one a second on the clock, through an `identity`
    /// that can hold one buffer back (`sleep-time`), into the speaker.
    @MainActor
    private func receiver(into speaker: CallSpeaker, feed: UInt64) throws -> MediaPipeline {
        try MediaPipeline(description:
            "audiotestsrc is-live=true wave=ticks freq=1000 sine-periods-per-tick=100 samplesperbuffer=960 ! "
            + "audio/x-raw,format=S16LE,rate=48000,channels=1 ! identity name=stall ! "
            + CallSpeaker.receiverSink(feed: feed, probeName: speaker.echoProbeName))
    }

    /// When each tick starts in what the speaker plays (seconds on a monotonic clock), heard
    /// through a pipeline of its own fed by the speaker's output, in 10 ms steps.
    @MainActor
    private final class Ear {
        let pipeline: MediaPipeline
        private(set) var onsets: [Double] = []
        private var loud = false

        init(channel: String) throws {
            pipeline = try MediaPipeline(description:
                "interaudiosrc channel=\(channel) period-time=10000000 ! audioconvert ! audio/x-raw,rate=48000,channels=1 ! "
                + "level name=heard interval=10000000 post-messages=true ! fakesink sync=false")
            pipeline.watchBus { [weak self] message in
                guard let self, case .level(let reading) = message else { return }
                let nowLoud = reading.loudestRMS > -30
                let now = ProcessInfo.processInfo.systemUptime
                // A 100 ms tick can dip for one 10 ms step on a loaded machine: a new tick
                // starts only half a second after the last (they are a second apart).
                if nowLoud, !self.loud, now - (self.onsets.last ?? -1) > 0.5 { self.onsets.append(now) }
                self.loud = nowLoud
            }
            try pipeline.play()
        }
    }

    /// How much later than `reference` each of `onsets` is, beyond its whole seconds (the
    /// ticks are exactly one second apart at the source), in ms.
    private func addedDelays(_ onsets: ArraySlice<Double>, after reference: Double) -> [Int] {
        onsets.map { onset in
            let elapsed = onset - reference
            return Int(((elapsed - elapsed.rounded()) * 1000).rounded())
        }
    }

    func test_receiverStalledOnce_itsSoundIsNotLateForTheRestOfTheCall() throws { try onMain {
        GStreamer.initialize()
        let logger = Logger(label: "speaker-test")
        let channel = "speaker-test-ear-\(ProcessInfo.processInfo.processIdentifier)"
        let ear = try Ear(channel: channel)
        defer { ear.pipeline.stop() }
        let speaker = try CallSpeaker(sink: "interaudiosink channel=\(channel)", logger: logger)
        defer { speaker.stop() }
        speaker.add(feed: 1)
        let receiver = try receiver(into: speaker, feed: 1)
        try receiver.play()
        defer { receiver.stop() }

        // Four ticks as the call starts (the first ones may still move while the speaker's
        // sink settles: a tick 70–80 ms off was seen on a loaded machine), then the receiver's
        // thread held for 150 ms between two ticks, then three more.
        XCTAssertTrue(runLoop(until: { ear.onsets.count >= 4 }, timeout: 7), "the speaker played no ticks: \(ear.onsets)")
        MainLoop.iterate(until: { false }, timeout: 0.4)
        receiver.set("sleep-time", "150000", onElement: "stall")
        MainLoop.iterate(until: { false }, timeout: 0.1)
        receiver.set("sleep-time", "0", onElement: "stall")
        let before = ear.onsets.count
        XCTAssertTrue(runLoop(until: { ear.onsets.count >= before + 3 }, timeout: 6), "no ticks after the stall: \(ear.onsets)")

        // The ticks come when the last one before the stall did, give or take the ear's 10 ms
        // steps; before, the 150 ms stall made every later tick ~130 ms late (the hand-over kept
        // the sound that came late and played it after the silence it had filled in).
        let onsets = ear.onsets
        let reference = onsets[before - 1]
        let settled = addedDelays(onsets[before - 2 ..< before - 1], after: reference)
        XCTAssertTrue(settled.allSatisfy { abs($0) <= 25 }, "the ticks before the stall were not steady: \(settled) ms (\(onsets))")
        let later = addedDelays(onsets[before ..< before + 3], after: reference)
        XCTAssertTrue(later.allSatisfy { abs($0) <= 40 },
                      "the ticks after the stall came later than before it: \(later) ms after whole seconds from the last before it (\(onsets))")
    } }
}
