import CGLib
import CGtk

/// GtkPicture that shows video frames as they arrive.
///
/// Each frame becomes a `GdkMemoryTexture` over the frame's bytes (no copy); GTK keeps the
/// texture, and through it the GStreamer buffer, only until the next frame replaces it.
@MainActor
public final class VideoPicture: Widget {
    public private(set) var framesShown = 0

    public init() {
        super.init(gtk_picture_new())
        gtk_picture_set_content_fit(c(), GTK_CONTENT_FIT_COVER)
        gtk_picture_set_can_shrink(c(), 1)
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
