import CGLib
import CGtk

/// GtkPicture that shows video frames as they arrive.
///
/// Each frame becomes a `GdkMemoryTexture` over the frame's bytes (no copy); GTK keeps the
/// texture, and through it the GStreamer buffer, only until the next frame replaces it.
@MainActor
public final class VideoPicture: Widget {
    public private(set) var framesShown = 0

    /// How a frame fills the widget when their shapes differ.
    public enum Fit {
        /// Fills the widget, cropping the frame's edges (faces in tiles).
        case cover
        /// Shows the whole frame, with bars beside it (a shared screen: nothing may be cut off).
        case contain
    }

    public init(fit: Fit = .cover) {
        super.init(gtk_picture_new())
        gtk_picture_set_content_fit(c(), fit == .cover ? GTK_CONTENT_FIT_COVER : GTK_CONTENT_FIT_CONTAIN)
        gtk_picture_set_can_shrink(c(), 1)
    }

    /// False makes the frame's own size the picture's minimum size: shown pixel for pixel
    /// (inside a scrolled window, to pan over it).
    public var canShrink: Bool {
        get { gtk_picture_get_can_shrink(c()) != 0 }
        set { gtk_picture_set_can_shrink(c(), newValue ? 1 : 0) }
    }

    public func show(_ frame: VideoFrame) {
        let texture = gdk_memory_texture_new(gint(frame.width), gint(frame.height),
                                             GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, frame.bytes, gsize(frame.stride))
        guard let texture else { return }
        gtk_picture_set_paintable(c(), texture.c())
        g_object_unref(gpointer(texture))
        framesShown += 1
    }

    /// Drops the last frame so a stale image never lingers when video stops.
    public func clear() { gtk_picture_set_paintable(c(), nil) }

    public var hasFrame: Bool { gtk_picture_get_paintable(c()) != nil }
}
