import ConfabCore
import GLibBridge
import Logging

/// Where a call's remote audio is played: every participant's audio mixed into one playback
/// path that carries the echo canceller's probe (`webrtcechoprobe`), then the speaker.
///
/// Why one pipeline of its own: `webrtcdsp` on the microphone pairs with exactly one probe,
/// found by name when the DSP starts, and keeps that probe until it stops. So the probe must see
/// everything we play, from every participant, and must live as long as the microphone path:
/// - each receiver hands its decoded audio over through `interaudiosink`/`interaudiosrc` (one
///   channel per feed) into the mixer here;
/// - a speaker switch replaces only the sink after the probe (a new probe would be a stranger
///   to the running DSP, which would go on reading the old, silent one);
/// - muting the speaker silences what reaches the probe and the sink but keeps both running, so
///   the canceller stays adapted and in step when the sound comes back;
/// - the probe's name is unique per call, so a call starting while the last one's speaker is
///   still being released cannot pair with the wrong probe.
/// GStreamer's documentation wants the probe and the DSP in one top-level pipeline; in 1.22 the
/// pair works across pipelines (EchoCancellationAcrossPipelines_Tests measures it), which lets
/// the speaker outlive the microphone path and the receivers.
@MainActor
final class CallSpeaker {
    /// The `webrtcechoprobe`'s name, for the microphone's `webrtcdsp`.
    let echoProbeName: String

    /// Internal for tests (what building it made); owned here.
    let pipeline: MediaPipeline
    private let logger: Logger
    private static var callsStarted = 0
    private static let output = "speaker-output"

    /// - Parameter sink: gst-launch description of the speaker (see `GStreamerDeviceSource.sinkDescription`).
    init(sink: String, logger: Logger) throws {
        Self.callsStarted += 1
        echoProbeName = "confab-echo-probe-\(Self.callsStarted)"
        self.logger = logger
        // A silent source keeps the mixer (and so the probe and the speaker) running on the clock
        // while nobody else is in the call. The probe and the DSP must run at the same rate:
        // 48 kHz, what Opus gives. The tee lets the sink be unlinked and replaced while the
        // mixer runs (allow-not-linked: no "not linked" error meanwhile).
        // Without the plugin (some distributions package it apart) the speaker plays without a probe and
        // the microphone goes out unprocessed (see Publisher.voiceProcessingDescription).
        let probe = GStreamer.hasElement("webrtcechoprobe") ? "webrtcechoprobe name=\(echoProbeName) ! " : ""
        pipeline = try MediaPipeline(description:
            "audiotestsrc is-live=true wave=silence ! audio/x-raw,rate=48000,channels=1 ! speaker-mix. "
            + "audiomixer name=speaker-mix start-time-selection=first ! audioconvert ! audioresample ! "
            + "audio/x-raw,format=S16LE,rate=48000,channels=1 ! volume name=speaker-volume ! "
            + probe + "tee name=speaker-tee allow-not-linked=true")
        pipeline.watchBus { [weak self] message in
            if case .error(let text, let debug, _, _) = message {
                self?.logger.warning("speaker pipeline error", metadata: ["error": "\(text)", "debug": "\(debug ?? "")"])
            }
        }
        try pipeline.attachOutput(named: Self.output, description: Self.sinkBin(sink), from: "speaker-tee")
        try pipeline.play()
    }

    /// The description a receiver ends its audio with to be played here, mixed with the others.
    ///
    /// Sound that reaches the hand-over after the moment it was due there (the receiver's thread
    /// held up: a busy machine) is dropped (`max-lateness=0`). Kept, it would
    /// be queued behind the silence the speaker's side filled in meanwhile, and everything that
    /// participant says would be that much later for the rest of the call: one 150 ms stall made
    /// every later word ~130 ms late, and each longer stall added to it, up to the hand-over's
    /// 200 ms (CallSpeaker_Tests).
    static func receiverSink(feed: UInt64, probeName: String) -> String {
        "interaudiosink channel=\(channel(feed: feed, probeName: probeName)) max-lateness=0"
    }

    /// Starts playing `feed`'s audio (its receiver ends in `receiverSink(feed:probeName:)`).
    func add(feed: UInt64) {
        do {
            // A short hand-over (10 ms periods) keeps the added delay small. When the receiver is
            // late (a busy machine) the source fills in silence, and the receiver's side drops
            // the sound that comes too late for it (`receiverSink`); what is queued is bounded
            // anyway (200 ms, buffer-time: the oldest goes first).
            try pipeline.attachInput(named: inputName(feed),
                                     description: "interaudiosrc channel=\(Self.channel(feed: feed, probeName: echoProbeName)) "
                                         + "period-time=10000000 latency-time=20000000 buffer-time=200000000 ! audioconvert ! audioresample ! "
                                         + "capsfilter caps=\"audio/x-raw,rate=48000,channels=1\"",
                                     to: "speaker-mix")
        } catch {
            logger.warning("could not play a participant's audio", metadata: ["feed": "\(feed)", "error": "\(error)"])
        }
    }

    func remove(feed: UInt64) { pipeline.detachInput(named: inputName(feed)) }

    /// Plays to another speaker from now on; the probe (and so the echo canceller) stays.
    func use(sink: String) {
        do {
            try pipeline.attachOutput(named: Self.output, description: Self.sinkBin(sink), from: "speaker-tee")
        } catch {
            logger.warning("could not switch the speaker", metadata: ["error": "\(error)"])
        }
    }

    /// Silences the speaker (the probe then hears the silence that is played) or brings it back.
    func setMuted(_ muted: Bool) {
        pipeline.set("mute", muted ? "true" : "false", onElement: "speaker-volume")
    }

    func stop() { pipeline.stop() }

    private func inputName(_ feed: UInt64) -> String { "feed-\(feed)" }

    private static func channel(feed: UInt64, probeName: String) -> String { "\(probeName)-feed-\(feed)" }

    /// The sink behind a queue: the tee's thread never waits on a device.
    private static func sinkBin(_ sink: String) -> String { "queue leaky=downstream max-size-time=200000000 ! \(sink)" }
}
