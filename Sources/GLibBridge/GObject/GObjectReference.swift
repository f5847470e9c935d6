import CGLib

/// Owns one strong reference to a GObject and unrefs it when the Swift wrapper goes away.
///
/// Floating references (new GTK widgets, new GStreamer elements) are sunk on adoption, so the
/// wrapper is the owner until a container takes its own reference.
open class GObjectReference {
    public let objectPointer: UnsafeMutablePointer<GObject>

    /// Adopts `pointer`, sinking a floating reference or taking a new one.
    package init(adopting pointer: gpointer) {
        objectPointer = pointer.assumingMemoryBound(to: GObject.self)
        g_object_ref_sink(pointer)
    }

    /// Takes over a reference the caller already owns (a `*_new` that returns a full reference).
    package init(takingOwnershipOf pointer: gpointer) {
        objectPointer = pointer.assumingMemoryBound(to: GObject.self)
        if g_object_is_floating(pointer) != 0 { g_object_ref_sink(pointer) ; g_object_unref(pointer) }
    }

    deinit { g_object_unref(objectPointer) }

    package var raw: gpointer { gpointer(objectPointer) }

    /// The object as whatever C pointer type the call site needs: GTK's derivable types import
    /// as typed pointers, its final types as `OpaquePointer`, and every cast macro is missing.
    package func c<T: CPointer>() -> T { T(cPointer: UnsafeMutableRawPointer(objectPointer)) }

    /// Connects `body` to a signal whose handler takes no arguments besides the instance.
    @discardableResult
    public func onSignal(_ name: String, _ body: @escaping @MainActor () -> Void) -> SignalConnection {
        let box = CallbackBox(body)
        let thunk: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            CallbackBox<@MainActor () -> Void>.borrow(data).call()
        }
        let id = g_signal_connect_data(raw, name, unsafeBitCast(thunk, to: GCallback.self),
                                       box.retainedPointer(), releaseVoidCallback, GConnectFlags(rawValue: 0))
        return SignalConnection(object: self, handlerID: id)
    }

    /// Runs `body` whenever the GObject property `property` changes.
    @discardableResult
    public func onPropertyChange(_ property: String, _ body: @escaping @MainActor () -> Void) -> SignalConnection {
        let box = CallbackBox(body)
        let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            CallbackBox<@MainActor () -> Void>.borrow(data).call()
        }
        let id = g_signal_connect_data(raw, "notify::\(property)", unsafeBitCast(thunk, to: GCallback.self),
                                       box.retainedPointer(), releaseVoidCallback, GConnectFlags(rawValue: 0))
        return SignalConnection(object: self, handlerID: id)
    }

    /// Whether any handler is connected to `signal` (tests use it to prove disconnection).
    public func hasHandlers(for signal: String) -> Bool {
        let signalID = g_signal_lookup(signal, G_OBJECT_TYPE_portable(objectPointer))
        guard signalID != 0 else { return false }
        return g_signal_has_handler_pending(raw, signalID, 0, 1) != 0
    }

    // MARK: Properties

    public func setProperty(_ name: String, _ value: Bool) { withGValue(boolean: value) { g_object_set_property(objectPointer, name, $0) } }
    public func setProperty(_ name: String, _ value: Double) { withGValue(double: value) { g_object_set_property(objectPointer, name, $0) } }
    public func setProperty(_ name: String, _ value: String) { withGValue(string: value) { g_object_set_property(objectPointer, name, $0) } }
}

/// A connected signal handler; `disconnect()` removes it (also safe after the object is gone).
public final class SignalConnection {
    private weak var object: GObjectReference?
    private var handlerID: gulong

    package init(object: GObjectReference, handlerID: gulong) {
        self.object = object
        self.handlerID = handlerID
    }

    public func disconnect() {
        guard handlerID != 0, let object else { return }
        g_signal_handler_disconnect(object.raw, handlerID)
        handlerID = 0
    }
}

package func G_OBJECT_TYPE_portable(_ object: UnsafeMutablePointer<GObject>) -> GType {
    object.pointee.g_type_instance.g_class.pointee.g_type
}

/// A C pointer type an object pointer can be viewed as (the GTK cast macros do not import).
package protocol CPointer { init(cPointer: UnsafeMutableRawPointer) }
extension OpaquePointer: CPointer { package init(cPointer: UnsafeMutableRawPointer) { self.init(cPointer) } }
extension UnsafeMutablePointer: CPointer {
    package init(cPointer: UnsafeMutableRawPointer) { self = cPointer.assumingMemoryBound(to: Pointee.self) }
}
extension UnsafeMutableRawPointer {
    /// Views a raw GObject pointer as the C type the call needs.
    package func c<T: CPointer>() -> T { T(cPointer: self) }
}
extension OpaquePointer {
    package func c<T: CPointer>() -> T { T(cPointer: UnsafeMutableRawPointer(self)) }
}
extension UnsafeMutablePointer {
    package func c<T: CPointer>() -> T { T(cPointer: UnsafeMutableRawPointer(self)) }
}
