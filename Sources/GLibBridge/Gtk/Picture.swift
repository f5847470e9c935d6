import CGLib
import CGtk

/// Shows video frames as they arrive: a GtkDrawingArea that paints the newest frame's pixels
/// with cairo, straight from the GStreamer buffer.
///
/// Not a GtkPicture with a GdkMemoryTexture per frame (as before issue 15): GTK 4.8's cairo
/// renderer downloads a texture into a new cairo surface at every draw, through a per-pixel
/// float conversion even when the formats match (`gdk_memory_convert`; 21 % of the app's CPU
/// in a two-party call, the largest single item in the profile), then resamples it to the
/// widget (pixman, another 7 %); and `gtk_picture_set_paintable` queues a relayout of the
/// window for every frame. Here a frame becomes a cairo image surface over the frame's own
/// bytes (BGRA premultiplied is cairo's ARGB32), drawn at one frame pixel per screen pixel
/// when the pipeline scaled it to the widget (`onPixelSizeChanged`), and a new frame only
/// queues a redraw.
@MainActor
public final class VideoPicture: Widget {
    public private(set) var framesShown = 0
    /// Told when the widget's size in device pixels changes (noticed as frames are shown), so
    /// the pipeline can scale frames to it; see `ConfabCore.VideoViewport`.
    public var onPixelSizeChanged: (@MainActor (_ width: Int, _ height: Int) -> Void)?
    private var lastPixelSize: (width: Int, height: Int) = (0, 0)
    private let fit: Fit
    /// The frame drawn now, as a cairo surface that keeps the frame (and its buffer) alive.
    private var surface: OpaquePointer?
    private var frameSize: (width: Int, height: Int) = (0, 0)
    private var shrinks = true

    /// How a frame fills the widget when their shapes differ.
    public enum Fit {
        /// Fills the widget, cropping the frame's edges (faces in tiles).
        case cover
        /// Shows the whole frame, with bars beside it (a shared screen: nothing may be cut off).
        case contain
    }

    public init(fit: Fit = .cover) {
        self.fit = fit
        super.init(Self.newDrawingAreaShownAsImage())
        let box = CallbackBox<@MainActor (OpaquePointer, Int, Int) -> Void> { [weak self] cr, width, height in
            self?.draw(cr, width: width, height: height)
        }
        gtk_drawing_area_set_draw_func(area, { _, cr, width, height, data in
            guard let cr else { return }
            let box = CallbackBox<@MainActor (OpaquePointer, Int, Int) -> Void>.borrow(data)
            MainActor.assumeIsolated { box.body(cr, Int(width), Int(height)) }
        }, box.retainedPointer(), { data in CallbackBox<@MainActor (OpaquePointer, Int, Int) -> Void>.release(data) })
    }

    /// A GtkDrawingArea whose accessible role is an image, as GtkPicture's is (screen readers
    /// and the UI tests find "Camera preview" as one). The role can only be given at construction.
    private static func newDrawingAreaShownAsImage() -> UnsafeMutablePointer<GtkWidget> {
        var role = GValue()
        g_value_init(&role, gtk_accessible_role_get_type())
        g_value_set_enum(&role, gint(GTK_ACCESSIBLE_ROLE_IMG.rawValue))
        defer { g_value_unset(&role) }
        var names: [UnsafePointer<CChar>?] = [UnsafePointer(strdup("accessible-role"))]
        defer { free(UnsafeMutableRawPointer(mutating: names[0])) }
        let object = g_object_new_with_properties(gtk_drawing_area_get_type(), 1, &names, &role)
        return UnsafeMutableRawPointer(object!).assumingMemoryBound(to: GtkWidget.self)
    }

    isolated deinit {
        if let surface { cairo_surface_destroy(surface) }
    }

    private var area: UnsafeMutablePointer<GtkDrawingArea> { c() }

    /// False makes the frame's own size the widget's size: shown pixel for pixel (inside a
    /// scrolled window, to pan over it).
    public var canShrink: Bool {
        get { shrinks }
        set {
            shrinks = newValue
            updateContentSize()
        }
    }

    public func show(_ frame: VideoFrame) {
        guard let data = frame.data else { return }
        let next = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, gint(frame.width), gint(frame.height), gint(frame.stride))
        guard let next, cairo_surface_status(next) == CAIRO_STATUS_SUCCESS else {
            if let next { cairo_surface_destroy(next) }
            return
        }
        // The surface holds the frame until cairo lets go of it (a recorded draw may outlive
        // this picture's next frame).
        cairo_surface_set_user_data(next, &VideoPicture.frameKey, Unmanaged.passRetained(frame).toOpaque()) { data in
            if let data { Unmanaged<VideoFrame>.fromOpaque(data).release() }
        }
        if let surface { cairo_surface_destroy(surface) }
        surface = next
        let sizeChanged = frameSize != (frame.width, frame.height)
        frameSize = (frame.width, frame.height)
        if sizeChanged { updateContentSize() }
        gtk_widget_queue_draw(widget)
        framesShown += 1
        reportPixelSize()
    }

    /// Drops the last frame so a stale image never lingers when video stops.
    public func clear() {
        guard let surface else { return }
        cairo_surface_destroy(surface)
        self.surface = nil
        frameSize = (0, 0)
        updateContentSize()
        gtk_widget_queue_draw(widget)
    }

    public var hasFrame: Bool { surface != nil }

    /// Only its address matters: it names the frame attached to each surface.
    nonisolated(unsafe) private static var frameKey = cairo_user_data_key_t()

    private func updateContentSize() {
        gtk_drawing_area_set_content_width(area, gint(shrinks ? 0 : frameSize.width))
        gtk_drawing_area_set_content_height(area, gint(shrinks ? 0 : frameSize.height))
    }

    /// Paints the frame centred, covering or fitting the widget; at one frame pixel per screen
    /// pixel when the sizes allow it (then cairo only copies), else scaled bilinearly (cairo's
    /// default "good" filter costs several times more per frame).
    private func draw(_ cr: OpaquePointer, width: Int, height: Int) {
        guard let surface, frameSize.width > 0, frameSize.height > 0, width > 0, height > 0 else { return }
        let across = Double(width) / Double(frameSize.width), down = Double(height) / Double(frameSize.height)
        var scale = fit == .cover ? max(across, down) : min(across, down)
        // Within a pixel of 1:1 (the pipeline scaled it for us): no resampling.
        if abs(Double(frameSize.width) * scale - Double(frameSize.width)) < 1, abs(Double(frameSize.height) * scale - Double(frameSize.height)) < 1 {
            scale = 1
        }
        let x = ((Double(width) - Double(frameSize.width) * scale) / 2).rounded(.down)
        let y = ((Double(height) - Double(frameSize.height) * scale) / 2).rounded(.down)
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, Double(width), Double(height))
        cairo_clip(cr)
        cairo_translate(cr, x, y)
        if scale != 1 { cairo_scale(cr, scale, scale) }
        cairo_set_source_surface(cr, surface, 0, 0)
        if scale != 1 { cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR) }
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Checked at each frame rather than on a size signal (GTK 4 has none for allocations):
    /// a picture that shows frames is the only one whose size matters, and the check is two
    /// reads of the widget's allocation.
    private func reportPixelSize() {
        guard let onPixelSizeChanged else { return }
        let scale = Int(gtk_widget_get_scale_factor(widget))
        let size = (width: allocatedSize.width * scale, height: allocatedSize.height * scale)
        guard size.width > 0, size.height > 0, size != lastPixelSize else { return }
        lastPixelSize = size
        onPixelSizeChanged(size.width, size.height)
    }
}
