import CGLib
import CGtk
import GLibBridge

/// Counts the times GTK paints the window a widget is in (the paint phases of its frame
/// clock), for the statistics tests and benchmarks read: on GTK 4.8's cairo renderer each
/// paint allocates, clears, composites and uploads an image of what changed, so paints are
/// what drawing costs. Follows the widget into whichever window shows it; counting starts
/// once it is in one.
///
/// Not the surface's "render" signal, which counts only paints with something to draw: GTK's
/// own handler is connected first and stops the emission, so no later handler ever runs.
@MainActor
public final class PaintCounter {
    private weak var widget: Widget?
    private final class Count { var value = 0 }
    private let paints = Count()
    /// The frame clock counted now (a reference is kept while connected) and the handler on it.
    private var clock: UnsafeMutablePointer<GObject>?
    private var handlerID: gulong = 0

    public init(widget: Widget) {
        self.widget = widget
    }

    isolated deinit { disconnect() }

    /// Paints counted so far.
    public var count: Int {
        follow()
        return paints.value
    }

    private func follow() {
        let current = widget.flatMap { gtk_widget_get_frame_clock($0.widget) }.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GObject.self) }
        guard current != clock else { return }
        disconnect()
        guard let current else { return }
        g_object_ref(current)
        clock = current
        let box = CallbackBox<Count>(paints)
        let thunk: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            CallbackBox<Count>.borrow(data).body.value += 1
        }
        handlerID = g_signal_connect_data(current, "paint", unsafeBitCast(thunk, to: GCallback.self), box.retainedPointer(),
                                          { data, _ in CallbackBox<Count>.release(data) }, GConnectFlags(rawValue: 0))
    }

    private func disconnect() {
        guard let clock else { return }
        g_signal_handler_disconnect(clock, handlerID)
        g_object_unref(clock)
        self.clock = nil
        handlerID = 0
    }
}
