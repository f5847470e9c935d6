import CGLib
import CGtk
@testable import GLibBridge
@testable import GtkBridge
import XCTest

/// A frame painted into a recording (GTK records every draw of a GtkDrawingArea and replays it
/// later) must not be copied by cairo when the picture lets go of it: that copy (a new image,
/// cleared, then filled) cost every frame of every picture.
final class FrameImage_Tests: XCTestCase {
    private static let width = 4, height = 2

    /// A 4x2 BGRA frame of one colour, over bytes the test can still change.
    private func frame(blue: UInt8, alpha: UInt8 = 255) -> VideoFrame {
        let bytes = [UInt8](repeating: 0, count: Self.width * Self.height * 4).enumerated().map { index, _ in
            index % 4 == 0 ? blue : (index % 4 == 3 ? alpha : 0)
        }
        let gbytes = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count))! }
        return VideoFrame(width: Self.width, height: Self.height, stride: Self.width * 4, bytes: gbytes)
    }

    private func setBlue(_ blue: UInt8, in frame: VideoFrame) {
        for index in stride(from: 0, to: Self.width * Self.height * 4, by: 4) { frame.data?[index] = blue }
    }

    private func newRecording() -> OpaquePointer {
        var extents = cairo_rectangle_t(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height))
        return cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents)
    }

    /// The first pixel (BGRA) when `recording` is replayed onto a new image, opaque red at first.
    private func replayed(_ recording: OpaquePointer) -> [UInt8] {
        let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, gint(Self.width), gint(Self.height))!
        defer { cairo_surface_destroy(target) }
        let cr = cairo_create(target)
        cairo_set_source_rgb(cr, 1, 0, 0)
        cairo_paint(cr)
        cairo_set_source_surface(cr, recording, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(target)
        return Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(target), count: 4))
    }

    private func replayedBlue(_ recording: OpaquePointer) -> UInt8 { replayed(recording)[0] }

    private func record(_ image: FrameImage, into recording: OpaquePointer) {
        let cr = cairo_create(recording)
        if let pattern = image.pattern() {
            cairo_set_source(cr, pattern)
            cairo_pattern_destroy(pattern)
        }
        cairo_paint(cr)
        cairo_destroy(cr)
    }

    func test_recordedFrame_afterThePictureLetGo_isReplayedFromTheFramesOwnBytes() throws {
        let frame = frame(blue: 100)
        let recording = newRecording()
        defer { cairo_surface_destroy(recording) }
        record(try XCTUnwrap(FrameImage(frame)), into: recording)
        // The picture has let go of its image; a copy would have been taken now, and would keep
        // the old blue. The recording still reads the frame itself.
        setBlue(200, in: frame)
        XCTAssertEqual(replayedBlue(recording), 200, "the recording replayed a copy of the frame, not the frame")
    }

    /// Why FrameImage exists: the same recording made of the frame's surface as a surface
    /// pattern (as VideoPicture drew before) gets a copy when the surface is destroyed.
    func test_recordedSurfacePattern_afterTheSurfaceWasDestroyed_isACopy() throws {
        let frame = frame(blue: 100)
        let recording = newRecording()
        defer { cairo_surface_destroy(recording) }
        let surface = try XCTUnwrap(cairo_image_surface_create_for_data(frame.data, CAIRO_FORMAT_ARGB32, gint(Self.width), gint(Self.height), gint(Self.width * 4)))
        let cr = cairo_create(recording)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        setBlue(200, in: frame)
        XCTAssertEqual(replayedBlue(recording), 100, "cairo no longer copies a destroyed surface for its recordings")
    }

    /// Video is opaque whatever its alpha byte says: a capture in BGRx (alpha 0) painted as
    /// premultiplied ARGB was added to what lay under it instead of covering it.
    func test_frameWithAZeroAlphaByte_coversWhatIsUnderIt() throws {
        let frame = frame(blue: 100, alpha: 0)
        let recording = newRecording()
        defer { cairo_surface_destroy(recording) }
        record(try XCTUnwrap(FrameImage(frame)), into: recording)
        let pixel = replayed(recording)
        XCTAssertEqual(Array(pixel[0...2]), [100, 0, 0], "the frame did not cover the red under it (BGR \(pixel[0...2]))")
        XCTAssertEqual(pixel[3], 255)
    }

    func test_frame_isLetGo_onceTheRecordingIsGone() throws {
        weak var released: VideoFrame?
        let recording = newRecording()
        do {
            let frame = frame(blue: 100)
            released = frame
            record(try XCTUnwrap(FrameImage(frame)), into: recording)
        }
        XCTAssertNotNil(released, "the recording does not hold the frame it will replay")
        cairo_surface_destroy(recording)
        XCTAssertNil(released, "the frame outlived every recording of it (a leak)")
    }
}
