import CGLib
import CGtk
import GLibBridge

/// What lays out a widget from Swift (through a GtkCustomLayout): its size for a given size,
/// and where its children go. `PriorityRow`, `AspectFit` and `TileGrid` each have one.
@MainActor
protocol SwiftLayout: AnyObject {
    var requestMode: GtkSizeRequestMode { get }
    func measure(_ orientation: GtkOrientation, forSize: Int) -> (minimum: Int, natural: Int)
    func allocate(width: Int, height: Int)
}

/// Installs a `SwiftLayout` on a widget and finds it again from the widget. The layout is kept
/// on the widget itself (GObject qdata), so it lives exactly as long as the widget however the
/// Swift wrapper is held; GTK's layout callbacks carry no user data and look it up there.
@MainActor
enum SwiftLayouts {
    private static let quark = g_quark_from_static_string("confab-swift-layout")

    /// A class around the protocol value, for qdata.
    private final class Holder {
        let layout: SwiftLayout
        init(_ layout: SwiftLayout) { self.layout = layout }
    }

    static func install(_ layout: SwiftLayout, on widget: UnsafeMutablePointer<GtkWidget>) {
        let object = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self)
        g_object_set_qdata_full(object, quark, Unmanaged.passRetained(Holder(layout)).toOpaque()) { data in
            guard let data else { return }
            Unmanaged<Holder>.fromOpaque(data).release()
        }
        gtk_widget_set_layout_manager(widget, gtk_custom_layout_new(swiftLayoutRequestMode, swiftLayoutMeasure, swiftLayoutAllocate))
    }

    static func layout(of widget: UnsafeMutablePointer<GtkWidget>?) -> SwiftLayout? {
        guard let widget, let data = g_object_get_qdata(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), quark)
        else { return nil }
        return Unmanaged<Holder>.fromOpaque(data).takeUnretainedValue().layout
    }
}

// GTK runs layout on the main thread; pointers cross into the main actor as addresses, and the
// sizes come back as plain values.
private let swiftLayoutRequestMode: GtkCustomRequestModeFunc = { widget in
    let address = Int(bitPattern: widget)
    return MainActor.assumeIsolated {
        SwiftLayouts.layout(of: UnsafeMutablePointer(bitPattern: address))?.requestMode ?? GTK_SIZE_REQUEST_CONSTANT_SIZE
    }
}

private let swiftLayoutMeasure: GtkCustomMeasureFunc = { widget, orientation, forSize, minimum, natural, minimumBaseline, naturalBaseline in
    let address = Int(bitPattern: widget)
    let size = MainActor.assumeIsolated {
        SwiftLayouts.layout(of: UnsafeMutablePointer(bitPattern: address))?.measure(orientation, forSize: Int(forSize)) ?? (minimum: 0, natural: 0)
    }
    minimum?.pointee = gint(size.minimum)
    natural?.pointee = gint(size.natural)
    minimumBaseline?.pointee = -1
    naturalBaseline?.pointee = -1
}

private let swiftLayoutAllocate: GtkCustomAllocateFunc = { widget, width, height, _ in
    let address = Int(bitPattern: widget)
    MainActor.assumeIsolated { SwiftLayouts.layout(of: UnsafeMutablePointer(bitPattern: address))?.allocate(width: Int(width), height: Int(height)) }
}
