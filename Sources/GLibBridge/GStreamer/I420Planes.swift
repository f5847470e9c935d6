import CGStreamerVideo

/// The three planes of an I420 picture and their strides: a mapped frame's (from a cut's
/// origin), or a buffer of our own laid out the same way. The pointers are mutable so that one
/// type serves the frames read (the scaler: Swift hands a mutable pointer to libyuv's `const`
/// parameters as is) and the frames written (the test camera's ball).
struct I420Planes {
    let y, u, v: UnsafeMutablePointer<UInt8>
    let yStride, uStride, vStride: Int32
}

// In an extension, so the memberwise initializer (a buffer of our own) stays.
extension I420Planes {
    /// The planes of `frame` (mapped as I420), starting at luma pixel (`x`, `y`) — even, so the
    /// colour planes start at the matching sample. Nil if the mapping lacks a plane.
    init?(frame: GstVideoFrame, x: Int = 0, y: Int = 0) {
        guard let yPlane = frame.data.0, let uPlane = frame.data.1, let vPlane = frame.data.2 else { return nil }
        let strides = frame.info.stride
        func start(_ plane: UnsafeMutableRawPointer, stride: Int32, x: Int, y: Int) -> UnsafeMutablePointer<UInt8> {
            plane.assumingMemoryBound(to: UInt8.self) + y * Int(stride) + x
        }
        self.init(y: start(yPlane, stride: strides.0, x: x, y: y),
                  u: start(uPlane, stride: strides.1, x: x / 2, y: y / 2),
                  v: start(vPlane, stride: strides.2, x: x / 2, y: y / 2),
                  yStride: strides.0, uStride: strides.1, vStride: strides.2)
    }
}
