import CGLib
import CGStreamer
import CGStreamerApp
import CGStreamerVideo
import Glibc

/// One BGRA (BGRx for camera pictures) video frame, wrapping its memory without a copy: a
/// GStreamer buffer's, which stays mapped, or a `VideoFrameScaler`'s pooled buffer, which goes
/// back to its pool, when the last holder of the frame (or of a paint made from it) lets go.
public final class VideoFrame: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    /// The pixels as a GBytes (owned, +1; a texture made of them holds them too).
    package let bytes: OpaquePointer

    init(width: Int, height: Int, stride: Int, bytes: OpaquePointer) {
        self.width = width
        self.height = height
        self.stride = stride
        self.bytes = bytes
    }

    deinit { g_bytes_unref(bytes) }

    /// The first pixel's byte, for drawing straight from the buffer (nobody writes to it; cairo
    /// only asks for a mutable pointer). Nil if the buffer is shorter than the frame.
    package var data: UnsafeMutablePointer<UInt8>? {
        var size: gsize = 0
        guard let pointer = g_bytes_get_data(bytes, &size), Int(size) >= stride * height else { return nil }
        return UnsafeMutablePointer(mutating: pointer.assumingMemoryBound(to: UInt8.self))
    }

    /// The BGRA value of the pixel at (x, y), for tests and checks.
    public func pixel(x: Int, y: Int) -> (blue: UInt8, green: UInt8, red: UInt8, alpha: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return nil }
        let offset = y * stride + x * 4
        guard offset + 3 < Int(size) else { return nil }
        let p = data.assumingMemoryBound(to: UInt8.self)
        return (p[offset], p[offset + 1], p[offset + 2], p[offset + 3])
    }
}

/// Receives frames from an `appsink` on GStreamer's streaming thread and hands the newest one
/// to the main loop.
///
/// A one-slot mailbox sits between the threads: a newer frame replaces one still waiting, and
/// the main loop is woken only when the slot was empty, so frames never queue up behind a
/// slow UI and the streaming thread never blocks on it.
final class VideoFrameMailbox: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var waiting: VideoFrame?
    private let deliver: @MainActor (VideoFrame) -> Void
    /// Makes each frame from an I420 sample at the view's size; without one, samples are BGRA.
    private let scaler: VideoFrameScaler?
    /// Set when the owner stops: late wake-ups then deliver nothing.
    private var closed = false

    init(scaler: VideoFrameScaler?, deliver: @escaping @MainActor (VideoFrame) -> Void) {
        self.scaler = scaler
        self.deliver = deliver
        pthread_mutex_init(&lock, nil)
    }

    deinit { pthread_mutex_destroy(&lock) }

    /// Streaming thread: store the frame; wake the main loop if nobody is already coming.
    func post(_ frame: VideoFrame) {
        pthread_mutex_lock(&lock)
        let wasEmpty = waiting == nil
        waiting = frame
        let isClosed = closed
        pthread_mutex_unlock(&lock)
        guard wasEmpty, !isClosed else { return }
        // An idle source, not g_main_context_invoke: invoke runs the function right here, on the
        // streaming thread, whenever no thread holds the main context at that instant.
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            Unmanaged<VideoFrameMailbox>.fromOpaque(data!).takeUnretainedValue().deliverWaiting()
            return gboolean(0)
        }, Unmanaged.passRetained(self).toOpaque(), { data in
            Unmanaged<VideoFrameMailbox>.fromOpaque(data!).release()
        })
    }

    /// Main thread: take the newest frame and show it.
    private func deliverWaiting() {
        pthread_mutex_lock(&lock)
        let frame = waiting
        waiting = nil
        let isClosed = closed
        pthread_mutex_unlock(&lock)
        guard let frame, !isClosed else { return }
        MainActor.assumeIsolated { deliver(frame) }
    }

    func close() {
        pthread_mutex_lock(&lock)
        closed = true
        waiting = nil
        pthread_mutex_unlock(&lock)
    }

    /// Installs the appsink callback that maps each sample and posts it here.
    func attach(to appsink: UnsafeMutablePointer<GstElement>) {
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, data in
            let mailbox = Unmanaged<VideoFrameMailbox>.fromOpaque(data!).takeUnretainedValue()
            guard let sink, let sample = gst_app_sink_pull_sample(sink) else { return GST_FLOW_OK }
            defer { gst_sample_unref(sample) }
            if let frame = mailbox.scaler?.frame(from: sample) ?? VideoFrameMailbox.frame(from: sample) { mailbox.post(frame) }
            return GST_FLOW_OK
        }
        gst_app_sink_set_callbacks(UnsafeMutableRawPointer(appsink).assumingMemoryBound(to: GstAppSink.self),
                                   &callbacks, Unmanaged.passRetained(self).toOpaque(), { data in
            Unmanaged<VideoFrameMailbox>.fromOpaque(data!).release()
        })
    }

    /// Wraps the sample's buffer as GBytes; the free function unmaps and unrefs the buffer.
    private static func frame(from sample: OpaquePointer) -> VideoFrame? {
        guard let caps = gst_sample_get_caps(sample), let buffer = gst_sample_get_buffer(sample) else { return nil }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { return nil }
        let mapping = UnsafeMutablePointer<GstMapInfo>.allocate(capacity: 1)
        gst_buffer_ref(buffer)
        guard gst_buffer_map(buffer, mapping, GST_MAP_READ) != 0 else {
            gst_buffer_unref(buffer)
            mapping.deallocate()
            return nil
        }
        let holder = MappedBuffer(buffer: buffer, mapping: mapping)
        let bytes = g_bytes_new_with_free_func(mapping.pointee.data, mapping.pointee.size, { data in
            Unmanaged<MappedBuffer>.fromOpaque(data!).release()
        }, Unmanaged.passRetained(holder).toOpaque())
        return VideoFrame(width: Int(info.width), height: Int(info.height), stride: Int(info.stride.0), bytes: bytes!)
    }
}

/// Keeps a GstBuffer mapped while GTK holds its pixels.
private final class MappedBuffer: @unchecked Sendable {
    let buffer: UnsafeMutablePointer<GstBuffer>
    let mapping: UnsafeMutablePointer<GstMapInfo>
    init(buffer: UnsafeMutablePointer<GstBuffer>, mapping: UnsafeMutablePointer<GstMapInfo>) {
        self.buffer = buffer
        self.mapping = mapping
    }
    deinit {
        gst_buffer_unmap(buffer, mapping)
        gst_buffer_unref(buffer)
        mapping.deallocate()
    }
}
