import CGLib
import CGtk
import GLibBridge

/// Shows its child at one shape (a camera's 16:9), as wide as it is given and no taller than
/// `maximumHeight`; when that limit is what holds it, the child is narrower and centred. Laid out
/// by a GtkCustomLayout (`AspectFitPlan` has the rules), so the shape follows the real
/// allocation: a box would give a preview the height its neighbours leave, a strip in a tall
/// column (issue 15: 584x158 in the lobby, a band of the face).
@MainActor
public final class AspectFit: Widget {
    private let state: AspectFitState

    /// `ratio` is width ÷ height; the child is never smaller than `minimumHeight` tall.
    public init(child: Widget, ratio: Double, minimumHeight: Int) {
        state = AspectFitState(child: child, plan: AspectFitPlan(ratio: ratio, minimumHeight: minimumHeight, maximumHeight: nil))
        // A GtkBox for its child handling; its box layout is replaced.
        super.init(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        gtk_box_append(c(), child.widget)
        SwiftLayouts.install(state, on: widget)
    }

    /// The tallest the child may be (nil: as tall as the width makes it).
    public var maximumHeight: Int? {
        get { state.plan.maximumHeight }
        set {
            guard newValue != state.plan.maximumHeight else { return }
            state.plan.maximumHeight = newValue
            gtk_widget_queue_resize(widget)
        }
    }
}

/// The shape rules, apart from GTK so that they can be tested.
public struct AspectFitPlan: Equatable, Sendable {
    public var ratio: Double
    public var minimumHeight: Int
    public var maximumHeight: Int?

    public init(ratio: Double, minimumHeight: Int, maximumHeight: Int?) {
        self.ratio = ratio
        self.minimumHeight = minimumHeight
        self.maximumHeight = maximumHeight
    }

    /// The height asked for at `width`: the shape's, within the limits (the minimum wins over a
    /// maximum below it: a very short window scrolls rather than shrinking the picture to nothing).
    public func height(forWidth width: Int) -> Int {
        let shaped = Int((Double(width) / ratio).rounded(.down))
        return max(minimumHeight, min(shaped, maximumHeight ?? shaped))
    }

    /// The child's rectangle in an allocation of `width` × `height`: the largest of the shape
    /// that fits, centred.
    public func childFrame(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let fitWidth = min(width, Int((Double(height) * ratio).rounded(.down)))
        let fitHeight = min(height, Int((Double(fitWidth) / ratio).rounded()))
        return ((width - fitWidth) / 2, (height - fitHeight) / 2, fitWidth, fitHeight)
    }
}

/// The frame's layout (kept on its GtkBox by `SwiftLayouts`).
@MainActor
final class AspectFitState: SwiftLayout {
    let child: Widget
    var plan: AspectFitPlan

    init(child: Widget, plan: AspectFitPlan) {
        self.child = child
        self.plan = plan
    }

    var requestMode: GtkSizeRequestMode { GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH }

    func measure(_ orientation: GtkOrientation, forSize: Int) -> (minimum: Int, natural: Int) {
        var minimum: gint = 0, natural: gint = 0
        gtk_widget_measure(child.widget, orientation, -1, &minimum, &natural, nil, nil)
        if orientation == GTK_ORIENTATION_HORIZONTAL { return (Int(minimum), Int(natural)) }
        // Height for width; without a width, the shape at the child's own natural width.
        let height = plan.height(forWidth: forSize >= 0 ? forSize : Int(natural))
        return (max(Int(minimum), height), max(Int(minimum), height))
    }

    func allocate(width: Int, height: Int) {
        let frame = plan.childFrame(width: width, height: height)
        var box = GtkAllocation(x: gint(frame.x), y: gint(frame.y), width: gint(frame.width), height: gint(frame.height))
        gtk_widget_size_allocate(child.widget, &box, -1)
    }
}
