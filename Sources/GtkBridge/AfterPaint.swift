import CGLib
import CGtk
import GLibBridge

extension Widget {
    /// Runs `body` once GTK has laid out and painted the window the widget is in (the "after
    /// paint" phase of its frame clock, asked for now); at the main loop's next turn when the
    /// widget is in no window. For what must read the widgets' sizes after a change settles:
    /// during layout, a container may tell of its new size before its children have theirs.
    public func afterNextPaint(_ body: @escaping @MainActor () -> Void) {
        guard let clock = gtk_widget_get_frame_clock(widget) else {
            MainLoop.after(seconds: 0, body)
            return
        }
        let pending = PendingAfterPaint(body)
        let thunk: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { instance, data in
            // A strong reference: disconnecting releases the box the signal holds.
            let pending = CallbackBox<PendingAfterPaint>.borrow(data).body
            g_signal_handler_disconnect(instance, pending.handlerID)
            pending.run()
        }
        // If the clock goes first (the widget taken out of its window), the box goes with the
        // handler and `body` does not run.
        pending.handlerID = g_signal_connect_data(UnsafeMutableRawPointer(clock), "after-paint", unsafeBitCast(thunk, to: GCallback.self),
                                                  CallbackBox(pending).retainedPointer(),
                                                  { data, _ in CallbackBox<PendingAfterPaint>.release(data) }, GConnectFlags(rawValue: 0))
        gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT)
    }
}

/// One `afterNextPaint` call: its body and the handler to disconnect once it ran.
private final class PendingAfterPaint {
    var handlerID: gulong = 0
    private var body: (@MainActor () -> Void)?
    init(_ body: @escaping @MainActor () -> Void) { self.body = body }

    func run() {
        guard let body else { return }
        self.body = nil
        MainActor.assumeIsolated { body() }
    }
}
