import CGStreamer
import Foundation

/// The DTLS certificate every webrtcbin of the process shares. GStreamer 1.22 makes it (an RSA
/// 2048 key: 0.1–0.4 s of one core here, seconds on a slow machine) the first time a DTLS element
/// is made, and on the main thread that would be inside a call's first offer or answer, on the
/// way to the first frame. Made on a thread of its own as the program starts, it is ready long
/// before anyone clicks Join; a join that comes sooner waits for it without blocking the UI.
@MainActor
public enum DTLSCertificate {
    private static var making: Task<Void, Never>?

    /// Starts making it (once per process; later calls do nothing).
    public static func prepare() {
        guard making == nil else { return }
        GStreamer.initialize()
        making = Task {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                // gstdtlsdec makes the process's certificate in g_once: a webrtcbin asking for
                // it meanwhile waits for this one instead of making another.
                StartupWork.start(named: "dtls-certificate") {
                    if let element = gst_element_factory_make("dtlsdec", nil) {
                        gst_object_ref_sink(gpointer(element))
                        gst_object_unref(gpointer(element))
                    }
                    done.resume()
                }
            }
        }
    }

    /// Returns once the certificate exists (making it now if nobody asked before).
    public static func ready() async {
        prepare()
        await making?.value
    }
}
