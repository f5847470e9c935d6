import FoundationEssentials
import CGLib
import CGStreamer
import Glibc

/// Links each new incoming RTP pad of a webrtcbin to a branch, on the streaming thread that
/// announced the pad (data is already on its way; an unlinked pad would fail the pipeline).
final class IncomingStreamLinker: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private let pipeline: UnsafeMutablePointer<GstElement>
    private var branchDescriptions: [String: String] = [:]
    private var streamCount = 0
    private var closed = false
    var onLinked: (@MainActor (WebRTCBin.IncomingStream) -> Void)?

    init(pipeline: UnsafeMutablePointer<GstElement>) {
        self.pipeline = pipeline
        gst_object_ref(gpointer(pipeline))
        pthread_mutex_init(&lock, nil)
    }

    deinit {
        gst_object_unref(gpointer(pipeline))
        pthread_mutex_destroy(&lock)
    }

    var branches: [String: String] {
        get { withLock { branchDescriptions } }
        set { withLock { branchDescriptions = newValue } }
    }

    func close() { withLock { closed = true } }

    func connect(to element: UnsafeMutablePointer<GstElement>) {
        let thunk: @convention(c) (gpointer?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void = { _, pad, data in
            guard let pad, let data else { return }
            Unmanaged<IncomingStreamLinker>.fromOpaque(data).takeUnretainedValue().padAdded(pad)
        }
        g_signal_connect_data(gpointer(element), "pad-added", unsafeBitCast(thunk, to: GCallback.self),
                              Unmanaged.passRetained(self).toOpaque(),
                              { data, _ in Unmanaged<IncomingStreamLinker>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
    }

    private func padAdded(_ pad: UnsafeMutablePointer<GstPad>) {
        guard gst_pad_get_direction(pad) == GST_PAD_SRC else { return }
        let media = Self.media(of: pad)
        let (description, number, isClosed) = withLock { () -> (String?, Int, Bool) in
            streamCount += 1
            return (branchDescriptions[media], streamCount, closed)
        }
        guard !isClosed else { return }
        // Media nobody asked for is still consumed, so webrtcbin never sees a not-linked pad.
        let text = (description ?? "fakesink sync=false").replacing("{n}", with: String(number))
        var error: UnsafeMutablePointer<GError>?
        guard let branch = gst_parse_bin_from_description(text, 1, &error) else {
            if let error { g_error_free(error) }
            return
        }
        if let error { g_error_free(error) }
        let name = "incoming-\(media)-\(number)"
        gst_object_set_name(branch.c(), name)
        gst_bin_add(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), branch)
        gst_element_sync_state_with_parent(branch)
        if let sink = gst_element_get_static_pad(branch, "sink") {
            gst_pad_link(pad, sink)
            gst_object_unref(gpointer(sink))
        }
        guard let onLinked = withLock({ onLinked }) else { return }
        let stream = WebRTCBin.IncomingStream(media: media, branchName: name)
        onMainLoop { onLinked(stream) }
    }

    private static func media(of pad: UnsafeMutablePointer<GstPad>) -> String {
        guard let caps = gst_pad_get_current_caps(pad) ?? gst_pad_query_caps(pad, nil) else { return "unknown" }
        defer { gst_caps_unref(caps) }
        guard gst_caps_get_size(caps) > 0, let structure = gst_caps_get_structure(caps, 0),
              let media = gst_structure_get_string(structure, "media") else { return "unknown" }
        return String(cString: media)
    }

    private func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return body()
    }
}
