import CGStreamer
import FoundationEssentials

/// What GStreamer does once per process on a call's way to its first frame, done on threads of
/// their own before anyone joins, so that a join does not wait for it:
/// - the DTLS certificate (`DTLSCertificate`);
/// - loading the plugins a call uses and setting up their element classes. GStreamer does both
///   the first time one of a plugin's elements is made: loading `srtp` ran libsrtp's start-up
///   self-test through NSS, 25–35 ms of the subscriber's first answer on this machine (perf,
///   bench-media's join timeline); the speaker's and the publisher's pipelines took 8 and 16 ms
///   to build the first time, 0.4 and 3 ms after (webrtcbin's plugin alone loads in 12 ms) —
///   all of it on the main thread, in the join.
@MainActor
public enum CallMediaWarmUp {
    /// The elements a join makes, by factory name: first receiving's (each stream's decoding,
    /// made on a streaming thread as the stream comes), then the speaker's and the publisher's
    /// (`CallMediaWarmUp_Tests` builds all of them and finds every element here; the test
    /// devices' sinks are among them).
    nonisolated static let factoriesOfACall = [
        "srtpenc", "nicesrc", "videocrop", "interaudiosrc", "interaudiosink", "rtpvp8depay", "vp8dec", "rtpopusdepay", "opusdec",
        "videoconvert",
        "webrtcbin", "rtpbin", "vp8enc", "rtpvp8pay", "opusenc", "rtpopuspay", "webrtcdsp", "webrtcechoprobe",
        "audiomixer", "audiotestsrc", "audioconvert", "audioresample", "volume", "level", "valve", "tee", "queue",
        "capsfilter", "videorate", "videoscale", "appsink", "fakesink",
    ]
    private static var started = false

    /// Starts both (once per process; later calls do nothing).
    /// - Parameter joiningAtOnce: a program that joins as it starts (confab-peer) loads the
    ///   plugins beside the certificate, which its join waits for anyway (0.1–0.5 s). Otherwise
    ///   (the app, whose join comes from a person) they load once the certificate is made: a join
    ///   waits for the certificate, so it goes first (beside it on two cores, it came late for an
    ///   early join in one bench run of three).
    public static func start(joiningAtOnce: Bool = false) {
        guard !started else { return }
        started = true
        if joiningAtOnce {
            DTLSCertificate.prepare()
            loadPlugins()
        } else {
            Task {
                await DTLSCertificate.ready()
                loadPlugins()
            }
        }
    }

    private static func loadPlugins() {
        StartupWork.start(named: "plugin-warm-up") { prepareElements() }
    }

    /// Loads the plugins a call uses and sets up their element classes, here and now.
    nonisolated static func prepareElements() {
        for name in factoriesOfACall { GStreamer.prepareElement(name) }
    }
}
