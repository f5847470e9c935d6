/// A simulated room for `--simulated-room`: what the peer's test speaker plays comes back into
/// its test microphone about 50 ms later and 6 dB quieter, as a laptop's speakers reach its
/// microphone. The speaker and the microphone are in different pipelines of the media module,
/// so the sound crosses between them through an `interaudiosink`/`interaudiosrc` channel.
enum PeerRoom {
    private static let channel = "confab-peer-room"

    /// Ends the test speaker: the played sound goes into the room.
    static let speakerBranch = "interaudiosink channel=\(channel)"

    /// The room's sound as one input of the microphone's mixer called `mixer`.
    ///
    /// Delay: the hand-over itself holds about one 10 ms period; moving the timestamps 40 ms
    /// later makes the live mixer take the sound 40 ms after it was played — about 50 ms in all.
    /// −6 dB is an amplitude of 0.5.
    static func microphoneBranch(into mixer: String) -> String {
        "interaudiosrc channel=\(channel) period-time=10000000 latency-time=20000000 buffer-time=200000000 ! "
            + "audioconvert ! audioresample ! audio/x-raw,rate=48000,channels=1 ! identity ts-offset=40000000 ! volume volume=0.5 ! "
            + "queue max-size-time=500000000 max-size-buffers=0 max-size-bytes=0 ! \(mixer)."
    }
}
