import CGLib
import CGtk
import GLibBridge

/// Shows video frames as they arrive: a GtkDrawingArea that paints the newest frame's pixels
/// straight from the GStreamer buffer, with cairo under GTK's cairo renderer and as a texture
/// under the others (GL, a GNOME session's default).
///
/// Not a GtkPicture with a GdkMemoryTexture per frame (as before issue 15): GTK 4.8's cairo
/// renderer downloads a texture into a new cairo surface at every draw, through a per-pixel
/// float conversion even when the formats match (`gdk_memory_convert`; 21 % of the app's CPU
/// in a two-party call, the largest single item in the profile), then resamples it to the
/// widget (pixman, another 7 %); and `gtk_picture_set_paintable` queues a relayout of the
/// window for every frame. Here a frame becomes a cairo image surface over the frame's own
/// bytes (`FrameImage`), drawn at one frame pixel per screen pixel when the pipeline scaled it
/// to the widget (`onPixelSizeChanged`), and a new frame only queues a redraw.
///
/// Under GL the same drawing is the costlier path: GTK draws a cairo node into a new, cleared
/// image and uploads that as a texture for every frame (pixman and `memset`, about a quarter of
/// the app's main thread in a two-party call under Mesa's software GL; PERFORMANCE.md,
/// thirty-third round). There the frame's own bytes become the texture (`FrameImage.texture`),
/// uploaded once, with nothing drawn on the CPU. Under the cairo renderer a texture is the
/// path the first paragraph left (3.3× the main thread's CPU in a two-tile prototype), so each
/// paint asks which renderer draws the window (`VideoArea`).
@MainActor
public final class VideoPicture: Widget {
    public private(set) var framesShown = 0
    /// Paints that handed GTK the frame as a texture (any renderer but cairo's), and paints
    /// that drew it with cairo, for the statistics the UI tests and the benchmark read.
    public private(set) var paints = PaintCounts()
    /// Told when the widget's size in device pixels changes (noticed as frames are shown), so
    /// the pipeline can scale frames to it; see `ConfabCore.VideoViewport`.
    public var onPixelSizeChanged: (@MainActor (_ width: Int, _ height: Int) -> Void)?
    /// Told when the picture gets a frame after none, and when it is cleared: a covering picture
    /// (`Fit.cover`) hides everything under it, so its container need not paint a background
    /// there (a rounded, tinted fill cost about half as much as the frame itself per paint).
    public var onHasFrameChanged: (@MainActor () -> Void)?
    private var lastPixelSize: (width: Int, height: Int) = (0, 0)
    private let fit: Fit
    /// The frame drawn now.
    private var image: FrameImage?
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
        super.init(VideoArea.new())
        VideoArea.setPaint(of: widget) { [weak self] snapshot, width, height in
            self?.paintAsTexture(snapshot, width: width, height: height) ?? false
        }
        let box = CallbackBox<@MainActor (OpaquePointer, Int, Int) -> Void> { [weak self] cr, width, height in
            self?.draw(cr, width: width, height: height)
        }
        gtk_drawing_area_set_draw_func(area, { _, cr, width, height, data in
            guard let cr else { return }
            let box = CallbackBox<@MainActor (OpaquePointer, Int, Int) -> Void>.borrow(data)
            MainActor.assumeIsolated { box.body(cr, Int(width), Int(height)) }
        }, box.retainedPointer(), { data in CallbackBox<@MainActor (OpaquePointer, Int, Int) -> Void>.release(data) })
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
        guard let next = FrameImage(frame) else { return }
        let hadFrame = image != nil
        image = next
        if !hadFrame { onHasFrameChanged?() }
        let sizeChanged = frameSize != (frame.width, frame.height)
        frameSize = (frame.width, frame.height)
        if sizeChanged { updateContentSize() }
        gtk_widget_queue_draw(widget)
        framesShown += 1
        reportPixelSize()
    }

    /// Drops the last frame so a stale image never lingers when video stops.
    public func clear() {
        guard image != nil else { return }
        image = nil
        onHasFrameChanged?()
        frameSize = (0, 0)
        updateContentSize()
        gtk_widget_queue_draw(widget)
    }

    public var hasFrame: Bool { image != nil }

    private func updateContentSize() {
        gtk_drawing_area_set_content_width(area, gint(shrinks ? 0 : frameSize.width))
        gtk_drawing_area_set_content_height(area, gint(shrinks ? 0 : frameSize.height))
    }

    /// Where the frame goes in a widget of `width` x `height`: centred, covering or fitting it,
    /// at one frame pixel per screen pixel when the sizes allow it (then nothing is resampled).
    private func placement(width: Int, height: Int) -> (x: Double, y: Double, scale: Double)? {
        guard frameSize.width > 0, frameSize.height > 0, width > 0, height > 0 else { return nil }
        let across = Double(width) / Double(frameSize.width), down = Double(height) / Double(frameSize.height)
        var scale = fit == .cover ? max(across, down) : min(across, down)
        // Within a pixel of 1:1 (the pipeline scaled it for us): no resampling.
        if abs(Double(frameSize.width) * scale - Double(frameSize.width)) < 1, abs(Double(frameSize.height) * scale - Double(frameSize.height)) < 1 {
            scale = 1
        }
        let x = ((Double(width) - Double(frameSize.width) * scale) / 2).rounded(.down)
        let y = ((Double(height) - Double(frameSize.height) * scale) / 2).rounded(.down)
        return (x, y, scale)
    }

    /// Paints the frame with cairo (the cairo renderer's path), scaled bilinearly where it must
    /// be (cairo's default "good" filter costs several times more per frame).
    private func draw(_ cr: OpaquePointer, width: Int, height: Int) {
        guard let image, let (x, y, scale) = placement(width: width, height: height) else { return }
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, Double(width), Double(height))
        cairo_clip(cr)
        cairo_translate(cr, x, y)
        if scale != 1 { cairo_scale(cr, scale, scale) }
        guard let pattern = image.pattern() else { return cairo_restore(cr) }
        if scale != 1 { cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR) }
        cairo_set_source(cr, pattern)
        cairo_pattern_destroy(pattern)
        cairo_paint(cr)
        cairo_restore(cr)
        paints.withCairo += 1
    }

    /// Hands GTK the frame as a texture (every renderer but cairo's). False leaves the paint to
    /// `draw`.
    private func paintAsTexture(_ snapshot: OpaquePointer, width: Int, height: Int) -> Bool {
        guard let image, let (x, y, scale) = placement(width: width, height: height) else { return true }
        guard let texture = image.texture else { return false }
        var widget = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0), size: graphene_size_t(width: Float(width), height: Float(height)))
        var frame = graphene_rect_t(origin: graphene_point_t(x: Float(x), y: Float(y)),
                                    size: graphene_size_t(width: Float(Double(frameSize.width) * scale), height: Float(Double(frameSize.height) * scale)))
        // Black under the frame: a camera's BGRx leaves its fourth byte unset, and a texture
        // has no format that ignores it (GTK 4.8). Blended as premultiplied over black, the
        // colour shows as it is, whatever that byte holds (what cairo's RGB24 does).
        var black = GdkRGBA(red: 0, green: 0, blue: 0, alpha: 1)
        gtk_snapshot_push_clip(snapshot, &widget)
        gtk_snapshot_append_color(snapshot, &black, &frame)
        gtk_snapshot_append_texture(snapshot, texture, &frame)
        gtk_snapshot_pop(snapshot)
        paints.asTextures += 1
        return true
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

/// One frame as cairo paints it: an image surface over the frame's own bytes, which keeps the
/// frame (and its buffer) alive. Video is opaque, so the surface is RGB24 (cairo's xRGB: the
/// BGRA bytes as they are, the alpha byte unread), which cairo copies where it would blend an
/// ARGB32 one: a 862x485 frame 0.9 → 0.3 ms a paint, 4.1 → 0.5 M instructions (a cairo
/// program under callgrind), and a capture whose alpha byte is not 255 (BGRx) shows as it is.
///
/// It is painted through a raster-source pattern, not as a surface pattern: GTK records a
/// draw (a cairo node) and replays it later, and a recording takes a snapshot of every image
/// surface painted into it, which cairo keeps attached to the surface and fills, when the
/// surface is destroyed, with a copy of the whole image (allocated, cleared, copied) — for every
/// frame, whether or not the recording is still there (perf: 8 % of the lobby's main thread, and
/// two frames' worth of copying per frame in a one-to-one call). A recording of a raster source
/// keeps only a reference to this object, and cairo asks it for the image when it replays.
final class FrameImage {
    let surface: OpaquePointer
    let width: Int32
    let height: Int32
    private let frame: VideoFrame

    /// The frame as a GdkTexture over its own bytes (no copy; it holds them), made the first
    /// time a renderer that draws textures asks, then kept: a window painted again for another
    /// tile's frame reuses it, and GTK's GL renderer uploads a texture it has seen only once.
    /// Nil if GTK refuses it.
    private(set) lazy var texture: OpaquePointer? = gdk_memory_texture_new(
        width, height, GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, frame.bytes, gsize(frame.stride))

    /// Only its address matters: it names the frame attached to each surface.
    nonisolated(unsafe) private static var frameKey = cairo_user_data_key_t()

    init?(_ frame: VideoFrame) {
        guard let data = frame.data,
              let surface = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_RGB24, gint(frame.width), gint(frame.height), gint(frame.stride))
        else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        cairo_surface_set_user_data(surface, &Self.frameKey, Unmanaged.passRetained(frame).toOpaque()) { data in
            if let data { Unmanaged<VideoFrame>.fromOpaque(data).release() }
        }
        self.surface = surface
        self.frame = frame
        width = Int32(frame.width)
        height = Int32(frame.height)
    }

    deinit {
        cairo_surface_destroy(surface)
        if let texture { g_object_unref(UnsafeMutableRawPointer(texture)) }
    }

    /// A new pattern that paints this frame (the caller destroys it); every copy cairo makes
    /// of it (a recording's) holds the frame too, until cairo is done with it.
    func pattern() -> OpaquePointer? {
        let data = Unmanaged.passRetained(self).toOpaque()
        guard let pattern = cairo_pattern_create_raster_source(data, CAIRO_CONTENT_COLOR_ALPHA, width, height),
              cairo_pattern_status(pattern) == CAIRO_STATUS_SUCCESS else {
            // cairo's error pattern calls no callbacks: the reference taken for it goes here.
            Unmanaged<FrameImage>.fromOpaque(data).release()
            return nil
        }
        cairo_raster_source_pattern_set_acquire(pattern, { _, data, _, _ in
            guard let data else { return nil }
            return cairo_surface_reference(Unmanaged<FrameImage>.fromOpaque(data).takeUnretainedValue().surface)
        }, { _, _, surface in
            cairo_surface_destroy(surface)
        })
        cairo_raster_source_pattern_set_copy(pattern) { _, data, _ in
            if let data { _ = Unmanaged<FrameImage>.fromOpaque(data).retain() }
            return CAIRO_STATUS_SUCCESS
        }
        cairo_raster_source_pattern_set_finish(pattern) { _, data in
            if let data { Unmanaged<FrameImage>.fromOpaque(data).release() }
        }
        return pattern
    }
}

/// How many times pictures handed GTK a frame as a texture, and drew one with cairo.
public struct PaintCounts: Sendable {
    public var asTextures = 0
    public var withCairo = 0

    public init() {}

    public static func + (left: PaintCounts, right: PaintCounts) -> PaintCounts {
        var sum = left
        sum.asTextures += right.asTextures
        sum.withCairo += right.withCairo
        return sum
    }
}

/// The GType behind `VideoPicture`: a GtkDrawingArea whose paint (its snapshot) first offers
/// the picture the chance to hand GTK a texture, and otherwise paints as a drawing area does
/// (its draw function, with cairo). Which one is decided at each paint, by the renderer of the
/// window the widget is in, since a widget can move between windows and a window's renderer is
/// known only once it is realized. Its accessible role is an image, as GtkPicture's is (screen
/// readers and the UI tests find "Camera preview" as one).
@MainActor
enum VideoArea {
    /// What the picture does at a paint: true when it painted (a texture, or nothing to show).
    typealias Paint = @MainActor (_ snapshot: OpaquePointer, _ width: Int, _ height: Int) -> Bool

    nonisolated(unsafe) fileprivate static var drawingAreaSnapshot: (@convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?) -> Void)?
    nonisolated private static let paintKey = g_quark_from_static_string("confab-video-area-paint")

    private static let type: GType = {
        var parent = GTypeQuery()
        g_type_query(gtk_drawing_area_get_type(), &parent)
        return g_type_register_static_simple(gtk_drawing_area_get_type(), "ConfabVideoArea", parent.class_size, { classPointer, _ in
            guard let widgetClass = classPointer?.assumingMemoryBound(to: GtkWidgetClass.self) else { return }
            // The class starts as a copy of GtkDrawingArea's: this is its snapshot (the draw func).
            VideoArea.drawingAreaSnapshot = widgetClass.pointee.snapshot
            widgetClass.pointee.snapshot = { widget, snapshot in
                guard let widget, let snapshot else { return }
                if !VideoArea.rendersWithCairo(widget), let data = g_object_get_qdata(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), VideoArea.paintKey) {
                    let box = CallbackBox<Paint>.borrow(data)
                    let width = Int(gtk_widget_get_width(widget)), height = Int(gtk_widget_get_height(widget))
                    // GTK paints on the main thread; the snapshot crosses as an address.
                    let address = Int(bitPattern: snapshot)
                    let painted = MainActor.assumeIsolated { box.body(OpaquePointer(bitPattern: address)!, width, height) }
                    if painted { return }
                }
                VideoArea.drawingAreaSnapshot?(widget, snapshot)
            }
            gtk_widget_class_set_accessible_role(widgetClass, GTK_ACCESSIBLE_ROLE_IMG)
        }, parent.instance_size, nil, GTypeFlags(rawValue: 0))
    }()

    static func new() -> UnsafeMutablePointer<GtkWidget> {
        let object = g_object_new_with_properties(type, 0, nil, nil)
        return UnsafeMutableRawPointer(object!).assumingMemoryBound(to: GtkWidget.self)
    }

    /// Sets what `widget` (made by `new`) does at a paint under a renderer other than cairo's,
    /// for as long as the widget lives.
    static func setPaint(of widget: UnsafeMutablePointer<GtkWidget>, _ paint: @escaping Paint) {
        let object = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self)
        g_object_set_qdata_full(object, paintKey, CallbackBox<Paint>(paint).retainedPointer()) { CallbackBox<Paint>.release($0) }
    }

    /// Whether the window `widget` is in is drawn by GTK's cairo renderer (or is not known yet).
    nonisolated private static func rendersWithCairo(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else { return true }
        let instance = UnsafeMutableRawPointer(renderer).assumingMemoryBound(to: GTypeInstance.self)
        return g_type_check_instance_is_a(instance, gsk_cairo_renderer_get_type()) != 0
    }
}
