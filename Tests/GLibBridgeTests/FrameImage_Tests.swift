import CGLib
import CGtk
@testable import GLibBridge
import XCTest

/// A frame painted into a recording (GTK records every draw of a GtkDrawingArea and replays it
/// later) must not be copied by cairo when the picture lets go of it: that copy (a new image,
/// cleared, then filled) cost every frame of every picture.
final class FrameImage_Tests: XCTestCase {
    private static let width = 4, height = 2

    /// A 4x2 BGRA frame of one colour, over bytes the test can still change.
    private func frame(blue: UInt8) -> VideoFrame {
        let bytes = [UInt8](repeating: 0, count: Self.width * Self.height * 4).enumerated().map { index, _ in
            index % 4 == 0 ? blue : (index % 4 == 3 ? 255 : 0)
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

    /// The blue of the first pixel when `recording` is replayed onto a new image.
    private func replayedBlue(_ recording: OpaquePointer) -> UInt8 {
        let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, gint(Self.width), gint(Self.height))!
        defer { cairo_surface_destroy(target) }
        let cr = cairo_create(target)
        cairo_set_source_surface(cr, recording, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(target)
        return cairo_image_surface_get_data(target)[0]
    }

    func test_recordedFrame_afterThePictureLetGo_isReplayedFromTheFramesOwnBytes() throws {
        let frame = frame(blue: 100)
        let recording = newRecording()
        defer { cairo_surface_destroy(recording) }
        do {
            let image = try XCTUnwrap(FrameImage(frame))
            let cr = cairo_create(recording)
            let pattern = image.pattern()
            cairo_set_source(cr, pattern)
            cairo_pattern_destroy(pattern)
            cairo_paint(cr)
            cairo_destroy(cr)
        }
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

    func test_frame_isLetGo_onceTheRecordingIsGone() throws {
        weak var released: VideoFrame?
        let recording = newRecording()
        do {
            let frame = frame(blue: 100)
            released = frame
            let image = try XCTUnwrap(FrameImage(frame))
            let cr = cairo_create(recording)
            let pattern = image.pattern()
            cairo_set_source(cr, pattern)
            cairo_pattern_destroy(pattern)
            cairo_paint(cr)
            cairo_destroy(cr)
        }
        XCTAssertNotNil(released, "the recording does not hold the frame it will replay")
        cairo_surface_destroy(recording)
        XCTAssertNil(released, "the frame outlived every recording of it (a leak)")
    }
}
