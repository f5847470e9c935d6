import CGLib
import CGtk
import GLibBridge

/// A row of controls that adapts to its width instead of wrapping: with room, each control has
/// its caption under it; with less, the captions go; with less still, the lowest-priority
/// controls are left out and the overflow control (a ⋯ menu) is shown, where the owner offers
/// them (`isLeftOut`). Laid out by a GtkCustomLayout (see `PriorityRowPlan` for the rules), so
/// the choice follows the real allocation — a window resized, a sidebar opened, full screen.
///
/// Left-out controls are unmapped (`gtk_widget_set_child_visible`, as GtkNotebook does with
/// tabs that don't fit), which needs no relayout, and hidden from assistive technologies.
@MainActor
public final class PriorityRow: Widget {
    private let state: PriorityRowState

    public init(spacing: Int, groupSpacing: Int) {
        state = PriorityRowState(spacing: spacing, groupSpacing: groupSpacing)
        // A GtkBox for its child handling and accessible role; its box layout is replaced.
        super.init(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        SwiftLayouts.install(state, on: widget)
    }

    /// Adds `control` at the end, in `group`, with `caption` under it when there is room.
    /// `priority` nil: never left out; otherwise lower is left out first.
    public func append(_ control: Widget, caption: String, group: Int, priority: Int? = nil) {
        let label = Label(caption, cssClasses: ["caption", "control-caption"])
        // The control carries the same name; the caption is for the eye only.
        confab_accessible_set_hidden(label.widget, 1)
        gtk_box_append(c(), control.widget)
        gtk_box_append(c(), label.widget)
        state.items.append(.init(control: control, caption: label, group: group, priority: priority, isOverflow: false))
        gtk_widget_queue_resize(widget)
    }

    /// Adds the overflow control (a "More" menu button) at the end, in `group`.
    public func appendOverflow(_ control: Widget, caption: String, group: Int) {
        append(control, caption: caption, group: group)
        state.items[state.items.count - 1].isOverflow = true
    }

    /// The overflow control has content of its own and shows even when nothing is left out.
    public var overflowWanted: Bool {
        get { state.overflowWanted }
        set {
            guard newValue != state.overflowWanted else { return }
            state.overflowWanted = newValue
            gtk_widget_queue_resize(widget)
        }
    }

    /// Whether `control` is left out for lack of space now (the owner offers it elsewhere).
    public func isLeftOut(_ control: Widget) -> Bool {
        state.items.firstIndex { $0.control === control }.map { state.plan.leftOut.contains($0) } ?? false
    }

    /// Whether the captions are shown now.
    public var showsCaptions: Bool { state.plan.showsCaptions }
}

/// The row's layout (kept on its GtkBox by `SwiftLayouts`).
@MainActor
final class PriorityRowState: SwiftLayout {
    struct Entry {
        let control: Widget
        let caption: Label
        let group: Int
        let priority: Int?
        var isOverflow: Bool
    }

    let spacing: Int
    let groupSpacing: Int
    /// Between a control and its caption.
    let captionGap = 4
    var items: [Entry] = []
    var overflowWanted = false
    /// The plan of the last allocation (what `isLeftOut` answers from).
    var plan = PriorityRowPlan(showsCaptions: false, shown: [], leftOut: [])
    /// Left out as last told to assistive technologies.
    private var hiddenFromAccessibility: Set<Int> = []

    init(spacing: Int, groupSpacing: Int) {
        self.spacing = spacing
        self.groupSpacing = groupSpacing
    }

    var requestMode: GtkSizeRequestMode { GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH }

    private static func size(of widget: UnsafeMutablePointer<GtkWidget>, _ orientation: GtkOrientation, for forSize: Int = -1) -> Int {
        var minimum: gint = 0, natural: gint = 0
        gtk_widget_measure(widget, orientation, gint(forSize), &minimum, &natural, nil, nil)
        return Int(natural)
    }

    private func measuredItems() -> [PriorityRowPlan.Item] {
        items.map { entry in
            let present = gtk_widget_get_visible(entry.control.widget) != 0
            return PriorityRowPlan.Item(width: present ? Self.size(of: entry.control.widget, GTK_ORIENTATION_HORIZONTAL) : 0,
                                        captionWidth: present ? Self.size(of: entry.caption.widget, GTK_ORIENTATION_HORIZONTAL) : 0,
                                        group: entry.group, priority: entry.priority, isOverflow: entry.isOverflow, isPresent: present)
        }
    }

    private func plan(for width: Int, _ measured: [PriorityRowPlan.Item]) -> PriorityRowPlan {
        PriorityRowPlan.make(items: measured, available: width, spacing: spacing, groupSpacing: groupSpacing, overflowWanted: overflowWanted)
    }

    /// Heights of the controls' row and of the captions' row, over the shown items.
    private func rowHeights(_ plan: PriorityRowPlan) -> (controls: Int, captions: Int) {
        var controls = 0, captions = 0
        for index in plan.shown {
            controls = max(controls, Self.size(of: items[index].control.widget, GTK_ORIENTATION_VERTICAL))
            if plan.showsCaptions { captions = max(captions, Self.size(of: items[index].caption.widget, GTK_ORIENTATION_VERTICAL)) }
        }
        return (controls, captions)
    }

    func measure(_ orientation: GtkOrientation, forSize: Int) -> (minimum: Int, natural: Int) {
        let measured = measuredItems()
        if orientation == GTK_ORIENTATION_HORIZONTAL {
            return PriorityRowPlan.widths(items: measured, spacing: spacing, groupSpacing: groupSpacing, overflowWanted: overflowWanted)
        }
        // Height for width: captions only where they will be shown.
        let compact = rowHeights(plan(for: 0, measured))
        let wide = rowHeights(plan(for: forSize < 0 ? Int.max / 4 : forSize, measured))
        let compactHeight = compact.controls
        let height = wide.controls + (wide.captions > 0 ? captionGap + wide.captions : 0)
        return forSize < 0 ? (compactHeight, max(height, compactHeight)) : (height, height)
    }

    func allocate(width: Int, height: Int) {
        let measured = measuredItems()
        let plan = plan(for: width, measured)
        self.plan = plan
        let (controlsHeight, captionsHeight) = rowHeights(plan)
        let contentHeight = controlsHeight + (plan.showsCaptions ? captionGap + captionsHeight : 0)
        let total = PriorityRowPlan.width(of: plan.shown, in: measured, captions: plan.showsCaptions, spacing: spacing, groupSpacing: groupSpacing)
        var x = max(0, (width - total) / 2)
        let top = max(0, (height - contentHeight) / 2)
        let shown = Set(plan.shown)
        var previousGroup: Int?
        for (index, entry) in items.enumerated() {
            guard shown.contains(index) else {
                gtk_widget_set_child_visible(entry.control.widget, 0)
                gtk_widget_set_child_visible(entry.caption.widget, 0)
                continue
            }
            let item = measured[index]
            if let previousGroup { x += previousGroup == item.group ? spacing : groupSpacing }
            previousGroup = item.group
            let slot = plan.slotWidth(of: item)
            let controlHeight = Self.size(of: entry.control.widget, GTK_ORIENTATION_VERTICAL, for: item.width)
            gtk_widget_set_child_visible(entry.control.widget, 1)
            var box = GtkAllocation(x: gint(x + (slot - item.width) / 2), y: gint(top + (controlsHeight - controlHeight) / 2),
                                    width: gint(item.width), height: gint(controlHeight))
            gtk_widget_size_allocate(entry.control.widget, &box, -1)
            if plan.showsCaptions {
                let captionHeight = Self.size(of: entry.caption.widget, GTK_ORIENTATION_VERTICAL, for: item.captionWidth)
                gtk_widget_set_child_visible(entry.caption.widget, 1)
                var captionBox = GtkAllocation(x: gint(x + (slot - item.captionWidth) / 2), y: gint(top + controlsHeight + captionGap),
                                               width: gint(item.captionWidth), height: gint(captionHeight))
                gtk_widget_size_allocate(entry.caption.widget, &captionBox, -1)
            } else {
                gtk_widget_set_child_visible(entry.caption.widget, 0)
            }
            x += slot
        }
        // A left-out control is gone for screen readers too (it is offered in the overflow menu).
        if plan.leftOut != hiddenFromAccessibility {
            for index in plan.leftOut.symmetricDifference(hiddenFromAccessibility) {
                confab_accessible_set_hidden(items[index].control.widget, plan.leftOut.contains(index) ? 1 : 0)
            }
            hiddenFromAccessibility = plan.leftOut
        }
    }
}
