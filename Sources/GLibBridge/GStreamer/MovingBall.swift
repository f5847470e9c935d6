import CGLib
import CGStreamer
import CGStreamerVideo
import Glibc

/// The test camera's picture: a white ball moving over one colour, drawn into each frame of a
/// solid-colour `videotestsrc` as it leaves the source.
///
/// Why not `videotestsrc pattern=ball`: it paints every pixel of every frame through a line
/// buffer and converts each line, the ball's and the background's alike. At 640x360, 30 fps,
/// in I420 (gst-launch, 10 s): 6.1 % of a core, against 0.5 % for the same source's solid
/// colour — more than VP8 encoding the frames at the speed the calls use, and on two cores a
/// tax on every test call and benchmark that no real camera levies. Chromium's fake camera,
/// the benchmark's other side, costs about 3.5 % of a core including its delivery to the
/// page (headless, a page that only opens it). Drawn here, only the ball's pixels are touched.
///
/// The scene is the one `videotestsrc pattern=ball motion=sweep` drew, so that the encoder gets
/// what it got: a ball of radius a quarter of the frame's shorter side, going round the
/// middle at that distance once every 200 frames (at 30 fps), its edge blended over two
/// pixels; and 1 px white lines from edge to edge: down the middle of the frame, and down and
/// across through the ball's centre (videotestsrc also meant one across the middle, which its
/// line buffering lost).
struct MovingBall: Equatable, Sendable {
    /// The ball's centre and radius in frame pixels.
    let x: Double, y: Double, radius: Double
    let width: Int, height: Int

    /// Seconds for one turn: 200 frames at 30 fps.
    static let turn = 200.0 / 30
    /// White in the frames' limited range, and a neutral colour sample.
    static let white: UInt8 = 235, neutral: UInt8 = 128

    /// Where the ball is at `seconds` into the stream, in a `width` × `height` frame.
    init(width: Int, height: Int, seconds: Double) {
        let radius = Double(min(width, height) / 4)
        let angle = 2 * .pi * seconds / Self.turn
        x = Double(width / 2) + sin(angle) * radius
        y = Double(height / 2) - cos(angle) * radius
        self.radius = radius
        self.width = width
        self.height = height
    }

    /// How much of the pixel centred at (`column`, `row`) (luma pixels) the ball covers, 0 to
    /// 1: a ramp over the two pixels of its edge.
    func coverage(column: Double, row: Double) -> Double {
        let distance = ((column - x) * (column - x) + (row - y) * (row - y)).squareRoot()
        return min(1, max(0, (radius - distance) * 0.5))
    }

    /// Draws the scene over an I420 frame's planes (white and neutral colour over what is
    /// there), clipped to the frame.
    func draw(into planes: I420Planes) {
        blendBall(planes.y, stride: Int(planes.yStride), scale: 1, towards: Self.white)
        blendBall(planes.u, stride: Int(planes.uStride), scale: 2, towards: Self.neutral)
        blendBall(planes.v, stride: Int(planes.vStride), scale: 2, towards: Self.neutral)
        drawLines(planes.y, stride: Int(planes.yStride), scale: 1) { $0 = Self.white }
        // A colour sample covers two columns or rows: the 1 px line takes half of it.
        drawLines(planes.u, stride: Int(planes.uStride), scale: 2) { Self.mix(&$0, towards: Self.neutral, by: 0.5) }
        drawLines(planes.v, stride: Int(planes.vStride), scale: 2) { Self.mix(&$0, towards: Self.neutral, by: 0.5) }
    }

    /// Applies `paint` along the lines in one plane, `scale` times smaller than the luma's:
    /// down the middle, and down and across through the ball's centre.
    private func drawLines(_ plane: UnsafeMutablePointer<UInt8>, stride: Int, scale: Int, paint: (inout UInt8) -> Void) {
        let columns = (width + scale - 1) / scale, rows = (height + scale - 1) / scale
        func paintColumn(_ column: Int) {
            guard column >= 0 && column < columns else { return }
            for row in 0..<rows { paint(&plane[row * stride + column]) }
        }
        paintColumn(width / 2 / scale)
        paintColumn(Int(x) / scale)
        let row = Int(y) / scale
        guard row >= 0 && row < rows else { return }
        let line = plane + row * stride
        for column in 0..<columns { paint(&line[column]) }
    }

    /// Blends the ball into one plane, `scale` times smaller than the luma's: rows inside the
    /// ball are filled at once, only the two-pixel edge is blended pixel by pixel.
    private func blendBall(_ plane: UnsafeMutablePointer<UInt8>, stride: Int, scale: Int, towards value: UInt8) {
        let columns = (width + scale - 1) / scale, rows = (height + scale - 1) / scale
        let step = Double(scale), offset = (step - 1) / 2
        let firstRow = max(0, Int(((y - radius - 1) / step).rounded(.down)))
        let lastRow = min(rows - 1, Int(((y + radius + 1) / step).rounded(.up)))
        guard firstRow <= lastRow else { return }
        for row in firstRow...lastRow {
            // This sample's centre in luma pixels.
            let centreRow = Double(row) * step + offset
            let dy = centreRow - y
            guard abs(dy) <= radius else { continue }
            let outer = (radius * radius - dy * dy).squareRoot() / step
            let inner = max(0, (radius - 2) * (radius - 2) - dy * dy).squareRoot() / step
            let middle = (x - offset) / step
            let line = plane + row * stride
            let fullFirst = max(0, Int((middle - inner).rounded(.up))), fullLast = min(columns - 1, Int((middle + inner).rounded(.down)))
            if fullFirst <= fullLast { (line + fullFirst).update(repeating: value, count: fullLast - fullFirst + 1) }
            let edgeFirst = max(0, Int((middle - outer).rounded(.down)) - 1), edgeLast = min(columns - 1, Int((middle + outer).rounded(.up)) + 1)
            // The edge: the columns on either side of the filled ones (all of them in a row
            // with none filled). Only those are visited: a 720p ball's rows are 360 wide, and
            // stepping over the filled middle of each cost more than the rest of the drawing.
            let blendEdge = { (columns: ClosedRange<Int>) in
                for column in columns {
                    let amount = coverage(column: Double(column) * step + offset, row: centreRow)
                    if amount > 0 { Self.mix(&line[column], towards: value, by: amount) }
                }
            }
            if fullFirst <= fullLast {
                if edgeFirst < fullFirst { blendEdge(edgeFirst...min(fullFirst - 1, edgeLast)) }
                if fullLast < edgeLast { blendEdge(max(fullLast + 1, edgeFirst)...edgeLast) }
            } else if edgeFirst <= edgeLast {
                blendEdge(edgeFirst...edgeLast)
            }
        }
    }

    private static func mix(_ sample: inout UInt8, towards value: UInt8, by amount: Double) {
        let old = Double(sample)
        sample = UInt8((old + (Double(value) - old) * amount).rounded())
    }
}

extension MovingBall {
    /// Draws the moving ball into every frame leaving `element` (an I420 source: its caps must
    /// say so, or the frames pass as they are). The probe lives as long as the pad.
    static func draw(atOutputOf element: UnsafeMutablePointer<GstElement>) {
        guard let pad = gst_element_get_static_pad(element, "src") else { return }
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, drawBallProbe, nil, nil)
        gst_object_unref(gpointer(pad))
    }
}

/// Streaming thread: draws the ball into the frame passing `pad` (fresh from the source's pool,
/// so written in place).
private let drawBallProbe: GstPadProbeCallback = { pad, info, _ in
    guard let pad, let info, let buffer = gst_pad_probe_info_get_buffer(info),
          gst_mini_object_is_writable(UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GstMiniObject.self)) != 0,
          let caps = gst_pad_get_current_caps(pad) else { return GST_PAD_PROBE_OK }
    defer { gst_caps_unref(caps) }
    var videoInfo = GstVideoInfo()
    guard gst_video_info_from_caps(&videoInfo, caps) != 0, videoInfo.finfo?.pointee.format == GST_VIDEO_FORMAT_I420 else { return GST_PAD_PROBE_OK }
    var frame = GstVideoFrame()
    guard gst_video_frame_map(&frame, &videoInfo, buffer, GST_MAP_WRITE) != 0 else { return GST_PAD_PROBE_OK }
    defer { gst_video_frame_unmap(&frame) }
    guard let planes = I420Planes(frame: frame) else { return GST_PAD_PROBE_OK }
    let time = buffer.pointee.pts
    let seconds = time == UInt64.max ? 0 : Double(time) / 1e9
    MovingBall(width: Int(videoInfo.width), height: Int(videoInfo.height), seconds: seconds).draw(into: planes)
    return GST_PAD_PROBE_OK
}
