import FoundationEssentials
import GLibBridge

/// `--listen`: measures what the peer's test speaker plays (everyone's audio, as mixed for the
/// speaker) every 50 ms — overall, and in a narrow band around each asked frequency, so a test
/// can tell one participant's tone from another's, or the noise between bursts.
///
/// The speaker lives in the media module's call pipeline; its sound reaches this pipeline of
/// our own through an `interaudiosink`/`interaudiosrc` channel.
@MainActor
final class PeerEar {
    private nonisolated static let channel = "confab-peer-ear"
    /// Ends the test speaker: the played sound goes to the ear. Sound that reaches it late is
    /// dropped, as a sound card would (`CallSpeaker.receiverSink`): kept, it stayed queued, and
    /// a peer frozen for 0.3 s (SIGSTOP) heard everything after it 0.3 s later than before.
    nonisolated static let speakerBranch = "interaudiosink channel=\(channel) max-lateness=0"
    static let interval = 0.05

    private let pipeline: MediaPipeline
    private let startedAt = Date()
    private(set) var bands: [MediaReport.HeardBand]

    init(frequencies: [Double]) throws {
        let nanoseconds = Int(Self.interval * 1e9)
        // Chebyshev band-pass, ±8 % around each frequency, 8 poles: another tone an octave or
        // more away is ~40 dB down, so each band reads its own tone.
        let branches = frequencies.map { frequency in
            "ear. ! queue ! audiochebband lower-frequency=\(frequency * 0.92) upper-frequency=\(frequency * 1.08) poles=8 ! "
                + "level name=\(Self.bandName(frequency)) interval=\(nanoseconds) ! fakesink sync=false"
        }
        pipeline = try MediaPipeline(description:
            "interaudiosrc channel=\(Self.channel) period-time=10000000 ! audioconvert ! audio/x-raw,format=F32LE,rate=48000,channels=1 ! "
            + "tee name=ear ear. ! queue ! level name=all interval=\(nanoseconds) ! fakesink sync=false "
            + branches.joined(separator: " "))
        bands = [MediaReport.HeardBand(band: "all")] + frequencies.map { MediaReport.HeardBand(band: Self.bandName($0)) }
        pipeline.watchBus { [weak self] message in
            guard let self, case .level(let reading) = message, let name = reading.elementName,
                  let index = self.bands.firstIndex(where: { $0.band == name }) else { return }
            self.bands[index].rmsDecibels.append(MediaReport.rounded(reading.loudestRMS))
        }
        try pipeline.play()
    }

    /// A band's name in the report: its frequency in Hz ("440").
    static func bandName(_ frequency: Double) -> String {
        frequency == frequency.rounded() ? String(Int(frequency)) : String(frequency)
    }

    func stop() -> MediaReport.Heard {
        pipeline.stop()
        return MediaReport.Heard(startedAt: startedAt, intervalSeconds: Self.interval, bands: bands)
    }
}
