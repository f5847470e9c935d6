import CGLib
import CGStreamer
import CGStreamerApp
import CGStreamerVideo
import CYUV
import Glibc

/// Turns each decoded I420 frame into the BGRx pixels of the view that shows it, on the
/// streaming thread that delivers it: the frame's middle cut to the view's shape (it covers the
/// view, the overflow cut off evenly), converted, scaled to the view's size and, for a
/// self-view, mirrored — with libyuv's SIMD code.
///
/// Measured here (callgrind, a 640x360 frame for the 862x485 tile of a one-to-one call):
/// GStreamer's videoscale in I420, then videocrop and videoconvert, took 13.2 M instructions a
/// frame; libyuv, converting the cut and scaling it in BGRx, 4.2 M (0.42 ms). The size is read
/// per frame, so no caps are renegotiated when a tile or a sender changes size: the branch has
/// nothing that can stop with not-negotiated (it did, rarely, with the capsfilters).
///
/// One scaler serves one appsink (its scratch buffers belong to that streaming thread).
public final class VideoFrameScaler: @unchecked Sendable {
    /// A size in pixels.
    public struct Size: Equatable, Sendable {
        public let width: Int
        public let height: Int
        public init(width: Int, height: Int) { self.width = width; self.height = height }
    }

    /// The part of a frame that is shown (its origin even, as I420's colour planes need).
    struct Cut: Equatable {
        let x: Int, y: Int, width: Int, height: Int
    }

    private let mirrored: Bool
    private var lock = pthread_mutex_t()
    private var wanted: Size?
    /// Streaming thread only: the converted cut, and the scaled picture before its mirroring.
    private let converted = ScratchBuffer()
    private let scaled = ScratchBuffer()
    private let pool = FrameBufferPool()

    /// - Parameter mirrored: flip left and right (how people expect to see themselves).
    public init(mirrored: Bool = false) {
        self.mirrored = mirrored
        pthread_mutex_init(&lock, nil)
    }

    deinit { pthread_mutex_destroy(&lock) }

    /// How many frame buffers were allocated so far (the rest were reused).
    var buffersAllocated: Int { pool.allocated }
    /// How many frame buffers are kept for the next frames now.
    var buffersKept: Int { pool.keptCount }
    /// The bytes of the work buffers now (streaming thread, or while no frame is being made).
    var workBytes: Int { converted.byteCount + scaled.byteCount }

    /// Gives back the memory kept for the next frames: the spare frame buffers, those still
    /// shown as they are let go, and the work buffers — megabytes for a picture that will not
    /// come back soon (the lobby's preview, held for the whole call otherwise). Only while no
    /// frame is being made (its pipeline stopped): the work buffers are the streaming thread's.
    /// The next frame allocates anew.
    public func releaseMemory() {
        pool.releaseAll()
        converted.release()
        scaled.release()
    }

    /// The size frames are made at from the next one on; nil: each frame's own size.
    public var outputSize: Size? {
        get {
            pthread_mutex_lock(&lock)
            defer { pthread_mutex_unlock(&lock) }
            return wanted
        }
        set {
            pthread_mutex_lock(&lock)
            wanted = newValue
            pthread_mutex_unlock(&lock)
        }
    }

    /// The centred part of a `source` frame with `output`'s shape, as large as the frame allows.
    static func cut(of source: Size, for output: Size) -> Cut {
        guard output.width > 0, output.height > 0 else { return Cut(x: 0, y: 0, width: source.width, height: source.height) }
        // Compared as cross products: the frame is wider than the output if sw/sh > ow/oh.
        var width = source.width, height = source.height
        if source.width * output.height > output.width * source.height {
            width = max(1, min(source.width, (source.height * output.width + output.height / 2) / output.height))
        } else {
            height = max(1, min(source.height, (source.width * output.height + output.width / 2) / output.width))
        }
        return Cut(x: (source.width - width) / 2 & ~1, y: (source.height - height) / 2 & ~1, width: width, height: height)
    }

    /// Streaming thread: the sample's picture at `outputSize`, or nil if it is not I420.
    func frame(from sample: OpaquePointer) -> VideoFrame? {
        guard let caps = gst_sample_get_caps(sample), let buffer = gst_sample_get_buffer(sample) else { return nil }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0, info.finfo?.pointee.format == GST_VIDEO_FORMAT_I420 else { return nil }
        var mapped = GstVideoFrame()
        guard gst_video_frame_map(&mapped, &info, buffer, GST_MAP_READ) != 0 else { return nil }
        defer { gst_video_frame_unmap(&mapped) }
        let source = Size(width: Int(info.width), height: Int(info.height))
        guard source.width > 1, source.height > 1 else { return nil }
        let output = outputSize ?? source
        guard output.width > 0, output.height > 0 else { return nil }
        let cut = Self.cut(of: source, for: output)
        guard let planes = I420Planes(frame: mapped, x: cut.x, y: cut.y) else { return nil }
        let matrix = Self.matrix(of: info.colorimetry)
        let stride = output.width * 4
        guard let target = pool.take(byteCount: stride * output.height) else { return nil }
        let pixels = target.pointer.assumingMemoryBound(to: UInt8.self)
        let needsScaling = cut.width != output.width || cut.height != output.height

        if cut.width * cut.height >= 4 * output.width * output.height {
            // A quarter of the frame's pixels or fewer (a thumbnail, a 720p camera in the
            // lobby or in a 360p tile): shrink in I420 first, so only the shown pixels are
            // converted. callgrind, instructions a frame (shrink or grow and convert, this way /
            // converting first): 640x360 to 290x163 1.2 / 1.3 M, to 430x242 2.4 / 1.9 M, to
            // 862x484 7.1 / 4.3 M; 1280x720 to exactly a quarter, 640x360, 1.1 / 3.3 M.
            // Bilinear, as GStreamer's videoscale was (libyuv's box filter cost half as much
            // again for a 720p camera in the lobby).
            let shrunk = converted.pointer(byteCount: output.width * output.height * 3 / 2 + output.width * 2)
            let chromaWidth = (output.width + 1) / 2, chromaHeight = (output.height + 1) / 2
            let u = shrunk + output.width * output.height, v = u + chromaWidth * chromaHeight
            I420Scale(planes.y, planes.yStride, planes.u, planes.uStride, planes.v, planes.vStride, Int32(cut.width), Int32(cut.height),
                      shrunk, Int32(output.width), u, Int32(chromaWidth), v, Int32(chromaWidth), Int32(output.width), Int32(output.height), kFilterBilinear)
            let shrunkPlanes = I420Planes(y: shrunk, u: u, v: v, yStride: Int32(output.width), uStride: Int32(chromaWidth), vStride: Int32(chromaWidth))
            convert(shrunkPlanes, matrix: matrix, width: output.width, height: output.height, into: pixels, stride: stride)
        } else if needsScaling {
            let cutStride = cut.width * 4
            let cutPixels = converted.pointer(byteCount: cutStride * cut.height)
            I420ToARGBMatrix(planes.y, planes.yStride, planes.u, planes.uStride, planes.v, planes.vStride, cutPixels, Int32(cutStride),
                             matrix, Int32(cut.width), Int32(cut.height))
            let scaledTarget = mirrored ? scaled.pointer(byteCount: stride * output.height) : pixels
            ARGBScale(cutPixels, Int32(cutStride), Int32(cut.width), Int32(cut.height),
                      scaledTarget, Int32(stride), Int32(output.width), Int32(output.height), kFilterBilinear)
            if mirrored { ARGBMirror(scaledTarget, Int32(stride), pixels, Int32(stride), Int32(output.width), Int32(output.height)) }
        } else {
            convert(planes, matrix: matrix, width: output.width, height: output.height, into: pixels, stride: stride)
        }
        return VideoFrame(width: output.width, height: output.height, stride: stride, bytes: target.bytes())
    }

    /// I420 to BGRx at the same size, mirrored if asked.
    private func convert(_ planes: I420Planes, matrix: UnsafePointer<YuvConstants>,
                         width: Int, height: Int, into pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        let unmirrored = mirrored ? scaled.pointer(byteCount: stride * height) : pixels
        I420ToARGBMatrix(planes.y, planes.yStride, planes.u, planes.uStride, planes.v, planes.vStride, unmirrored, Int32(stride),
                         matrix, Int32(width), Int32(height))
        if mirrored { ARGBMirror(unmirrored, Int32(stride), pixels, Int32(stride), Int32(width), Int32(height)) }
    }

    /// The YUV → RGB coefficients the frame was made with (GStreamer's caps say; an HD frame
    /// without a word is BT.709, as GStreamer assumes).
    private static func matrix(of colorimetry: GstVideoColorimetry) -> UnsafePointer<YuvConstants> {
        if colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255 { return confab_yuv_full_range() }
        if colorimetry.matrix == GST_VIDEO_COLOR_MATRIX_BT709 { return confab_yuv_bt709() }
        return confab_yuv_bt601()
    }
}

/// A buffer of the size the frames now need, reused from frame to frame and made anew when
/// that size changes — smaller too: a sender that steps down from 640x360 to 480x270 leaves
/// no 640x360 work buffer behind (bench-media at N = 4: four of them, 0.9 MiB each).
private final class ScratchBuffer {
    private var storage: UnsafeMutableRawPointer?
    private(set) var byteCount = 0

    deinit { release() }

    func release() {
        if let storage { FrameMemory.free(storage, byteCount: byteCount) }
        storage = nil
        byteCount = 0
    }

    func pointer(byteCount wanted: Int) -> UnsafeMutablePointer<UInt8> {
        if wanted != byteCount {
            release()
            storage = FrameMemory.allocate(byteCount: wanted)
            byteCount = wanted
        }
        return storage!.assumingMemoryBound(to: UInt8.self)
    }
}

/// Memory for frames and their work buffers, mapped from the kernel rather than taken from
/// malloc: freed, it goes back to the system at once. From malloc, a freed frame buffer stayed
/// in the heap, and a large one freed raised glibc's threshold for mapping blocks of their
/// own, so the next ones were carved from the heap too. These are allocated only when a size
/// changes (the pool and the work buffers are reused frame after frame), so mapping costs
/// nothing per frame.
private enum FrameMemory {
    static func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        // Out of address space: as a failed malloc would, it ends the program.
        guard let memory, memory != MAP_FAILED else { fatalError("no memory for a \(byteCount)-byte frame") }
        return memory
    }

    static func free(_ memory: UnsafeMutableRawPointer, byteCount: Int) {
        munmap(memory, byteCount)
    }
}

/// Frame buffers handed to the UI and given back when its last holder lets go, so a frame of
/// the same size reuses one instead of allocating (and the allocator keeping) a new one.
private final class FrameBufferPool: @unchecked Sendable {
    /// A few: the one being filled, the one waiting for the main loop, the one shown and the
    /// one a paint's recording may still hold.
    private static let kept = 4
    private var lock = pthread_mutex_t()
    private var free: [UnsafeMutableRawPointer] = []
    private var byteCount = 0
    private var allocations = 0

    init() { pthread_mutex_init(&lock, nil) }

    deinit {
        for buffer in free { FrameMemory.free(buffer, byteCount: byteCount) }
        pthread_mutex_destroy(&lock)
    }

    /// A buffer of `byteCount` bytes, reused if one is free.
    func take(byteCount wanted: Int) -> PooledBuffer? {
        guard wanted > 0 else { return nil }
        pthread_mutex_lock(&lock)
        if wanted != byteCount {
            // Another size: the old buffers are no use any more.
            for buffer in free { FrameMemory.free(buffer, byteCount: byteCount) }
            free.removeAll()
            byteCount = wanted
        }
        let reused = free.popLast()
        if reused == nil { allocations += 1 }
        pthread_mutex_unlock(&lock)
        return PooledBuffer(pointer: reused ?? FrameMemory.allocate(byteCount: wanted), byteCount: wanted, pool: self)
    }

    var allocated: Int {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return allocations
    }

    var keptCount: Int {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return free.count
    }

    /// Frees the spare buffers, and those in use as they come back (no size matches 0) until
    /// the next `take`.
    func releaseAll() {
        pthread_mutex_lock(&lock)
        let spare = free, spareByteCount = byteCount
        free.removeAll()
        byteCount = 0
        pthread_mutex_unlock(&lock)
        for buffer in spare { FrameMemory.free(buffer, byteCount: spareByteCount) }
    }

    fileprivate func give(_ buffer: UnsafeMutableRawPointer, byteCount returned: Int) {
        pthread_mutex_lock(&lock)
        let keep = returned == byteCount && free.count < Self.kept
        if keep { free.append(buffer) }
        pthread_mutex_unlock(&lock)
        if !keep { FrameMemory.free(buffer, byteCount: returned) }
    }
}

/// One buffer from a pool; it goes back when the GBytes made from it is freed.
private final class PooledBuffer {
    let pointer: UnsafeMutableRawPointer
    let byteCount: Int
    private let pool: FrameBufferPool

    init(pointer: UnsafeMutableRawPointer, byteCount: Int, pool: FrameBufferPool) {
        self.pointer = pointer
        self.byteCount = byteCount
        self.pool = pool
    }

    deinit { pool.give(pointer, byteCount: byteCount) }

    /// The buffer as GBytes (owned, +1), which keeps this alive until it is freed.
    func bytes() -> OpaquePointer {
        g_bytes_new_with_free_func(pointer, gsize(byteCount), { data in
            Unmanaged<PooledBuffer>.fromOpaque(data!).release()
        }, Unmanaged.passRetained(self).toOpaque())!
    }
}
