import CGStreamer
import Foundation

/// What GStreamer does once per process on a call's way to its first frame, done on threads of
/// their own before anyone joins, so that a join does not wait for it:
/// - the DTLS certificate (`DTLSCertificate`);
/// - loading the plugins only a connected call uses. GStreamer loads a plugin the first time one
///   of its elements is made, and webrtcbin makes its SRTP and ICE elements inside the first offer
///   or answer: there, loading `srtp` ran libsrtp's start-up self-test through NSS, 25–35 ms of
///   the subscriber's answer on this machine (perf, bench-media's join timeline), and `videocrop`
///   and `inter` came as the first stream was linked.
@MainActor
public enum CallMediaWarmUp {
    /// Elements whose plugins a call loads after joining, by factory name.
    nonisolated static let factoriesOfACall = ["srtpenc", "nicesrc", "videocrop", "interaudiosrc", "rtpvp8depay", "vp8dec", "opusdec"]
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
        StartupWork.start(named: "plugin-warm-up") {
            for name in factoriesOfACall { GStreamer.loadPlugin(providing: name) }
        }
    }
}
