import CGStreamer
import FoundationEssentials

/// The DTLS certificate every webrtcbin of the process shares. GStreamer 1.22 makes it the first
/// time a DTLS element is made, which would be inside a call's first offer or answer, on the
/// way to the first frame, with a new RSA 2048 key (0.1–0.9 s of one core here, seconds on a
/// slow machine). It is made here on a thread of its own as the program starts, so the UI never
/// waits for it, and with the key an earlier run kept (`DTLSKeyCache`), so a join that comes at
/// once does not wait either.
@MainActor
public enum DTLSCertificate {
    private static var making: Task<Void, Never>?
    private static var isReady = false

    /// Starts making it (once per process; later calls do nothing), with the RSA key kept in
    /// the user's cache from an earlier run (`DTLSKeyCache`).
    public static func prepare() {
        guard making == nil else { return }
        GStreamer.initialize()
        let keyFile = DTLSKeyCache.defaultFile
        making = Task {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                // gstdtlsdec makes the process's certificate in g_once: a webrtcbin asking for
                // it meanwhile waits for this one instead of making another.
                StartupWork.start(named: "dtls-certificate") {
                    let outcome = DTLSKeyCache.makingCertificate(keyIn: keyFile) {
                        if let element = gst_element_factory_make("dtlsdec", nil) {
                            gst_object_ref_sink(gpointer(element))
                            gst_object_unref(gpointer(element))
                        }
                    }
                    if outcome == .failed || outcome == .made(kept: false) {
                        StandardError.write("confab: the DTLS key could not be \(outcome == .failed ? "made" : "kept") (\(keyFile.path))\n")
                    }
                    done.resume()
                }
            }
            isReady = true
        }
    }

    /// Returns once the certificate exists (making it now if nobody asked before).
    public static func ready() async {
        prepare()
        await making?.value
    }

    /// The certificate, as PEM, that the process's DTLS connections present and whose SHA-256
    /// their SDP gives as fingerprint (what a DTLS element reports); nil before `ready()`.
    public static func presented() -> String? {
        guard isReady, let element = gst_element_factory_make("dtlsdec", nil) else { return nil }
        gst_object_ref_sink(gpointer(element))
        defer { gst_object_unref(gpointer(element)) }
        return stringProperty("pem", of: UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self))
    }
}
