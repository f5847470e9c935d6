import CGLib
import CGtk
import GLibBridge

/// Equal tiles in rows, with room for one more tile kept small in a corner over them (a call's
/// self-view, as the Stream SDK shows it with one or two others: the people you talk to large).
/// When the area is too small for a corner tile that leaves the others visible, it takes its
/// place in the grid instead. Laid out by a GtkCustomLayout (`TileGridPlan` has the rules), so
/// the choice follows the real allocation: a window resized, a sidebar opened. The corner tile
/// can be dragged to another corner (it may hide what matters in the video under it), as the
/// SDK's corner view can (or, with the focus on it, moved with the arrow keys); it stays there
/// until moved again, and its owner is told (`onCornerMoved`) so that the next call can start
/// there.
@MainActor
public final class TileGrid: Widget {
    private let state: TileGridState

    /// `cornerClearance`: how far above the area's bottom edge the corner tile stays, so that
    /// the bar along the bottom of the tile under it (a name, buttons) stays in view.
    public init(spacing: Int, cornerClearance: Int) {
        state = TileGridState(spacing: spacing, cornerClearance: cornerClearance)
        // A GtkBox for its child handling; its box layout is replaced. Children are drawn in
        // order, so the corner tile (appended last) is drawn over the others and gets the clicks.
        super.init(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        SwiftLayouts.install(state, on: widget)
        // Bubble phase: the tiles' own buttons (a pin) keep their clicks; the state is found
        // through the gesture's widget, so the handlers need no data of their own.
        let drag = gtk_gesture_drag_new()!
        gtk_event_controller_set_propagation_phase(drag, GTK_PHASE_BUBBLE)
        for (signal, handler) in [("drag-begin", tileGridDragBegan), ("drag-update", tileGridDragMoved), ("drag-end", tileGridDragEnded)] {
            g_signal_connect_data(UnsafeMutableRawPointer(drag), signal, unsafeBitCast(handler, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
        }
        gtk_widget_add_controller(widget, drag)
        // The keyboard's way to move it: Tab to the corner tile, then an arrow key.
        let keys = gtk_event_controller_key_new()!
        g_signal_connect_data(UnsafeMutableRawPointer(keys), "key-pressed", unsafeBitCast(tileGridKeyPressed, to: GCallback.self), nil, nil,
                              GConnectFlags(rawValue: 0))
        gtk_widget_add_controller(widget, keys)
    }

    /// What the corner tile tells a screen reader while it is in the corner (how to move it).
    public var cornerDescription: String {
        get { state.cornerDescription }
        set { state.cornerDescription = newValue }
    }

    /// The corner the corner tile sits in (or would, while it is in the grid).
    public var cornerPosition: TileGridPlan.Corner {
        get { state.position }
        set {
            guard newValue != state.position else { return }
            state.position = newValue
            gtk_widget_queue_allocate(widget)
        }
    }

    /// Called when the user moves the corner tile to another corner (a drag, or an arrow key).
    public var onCornerMoved: (@MainActor (TileGridPlan.Corner) -> Void)? {
        get { state.onCornerMoved }
        set { state.onCornerMoved = newValue }
    }

    /// Replaces the children: `tiles` in the grid and `corner`, if any, over them; the corner
    /// tile carries the CSS class `cornerClass` while it is in the corner.
    public func setChildren(_ tiles: [Widget], corner: Widget?, cornerClass: String) {
        for child in state.tiles + [state.corner].compactMap({ $0 }) { gtk_box_remove(c(), child.widget) }
        if let previous = state.corner {
            previous.removeCSSClass(state.cornerClass)
            gtk_widget_set_cursor_from_name(previous.widget, nil)
            previous.canFocus = false
            previous.setAccessibleDescription("")
        }
        state.tiles = tiles
        state.corner = corner
        state.cornerClass = cornerClass
        state.cornerShown = false
        for child in tiles + [corner].compactMap({ $0 }) { gtk_box_append(c(), child.widget) }
        gtk_widget_queue_resize(widget)
    }
}

/// Where each tile goes, apart from GTK so that it can be tested.
public struct TileGridPlan: Equatable, Sendable {
    public struct Frame: Equatable, Sendable {
        public var x, y, width, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }
    }

    /// The grid's tiles, in order (with the corner tile last when it had to join them).
    public var tiles: [Frame]
    /// The corner tile's frame when it is in the corner.
    public var corner: Frame?

    /// Where the corner tile sits. The bottom ones keep the clearance above the bottom edge.
    /// The raw values are what preferences store.
    public enum Corner: String, Sendable, CaseIterable {
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

        public enum Direction: Sendable { case left, right, up, down }

        /// The corner an arrow key moves to: the one on that side, keeping the other side
        /// (Up from the bottom right is the top right); itself when it is on that side already.
        public func moved(_ direction: Direction) -> Corner {
            let isTop = self == .topLeft || self == .topRight, isLeft = self == .topLeft || self == .bottomLeft
            switch direction {
            case .left: return isTop ? .topLeft : .bottomLeft
            case .right: return isTop ? .topRight : .bottomRight
            case .up: return isLeft ? .topLeft : .topRight
            case .down: return isLeft ? .bottomLeft : .bottomRight
            }
        }
    }

    /// The corner tile: 16:9 at this width, this far from the edges.
    public static let cornerWidth = 240
    public static let cornerMargin = 12

    /// `count` grid tiles (plus the corner one, if `hasCorner`) in `width` × `height`; the corner
    /// tile sits `clearance` above the bottom margin. It stays a corner only while it covers at
    /// most a third of the area's width and height: in a smaller area it would hide the very
    /// people it sits on.
    /// While the corner tile is dragged, it follows the pointer (`dragOffset` from its corner),
    /// within the area.
    /// `smallestCell`: the least a tile needs; the grid's shape never gives it less.
    public static func make(count: Int, hasCorner: Bool, width: Int, height: Int, spacing: Int, clearance: Int,
                            position: Corner = .bottomRight, dragOffset: (x: Int, y: Int) = (0, 0),
                            smallestCell: (width: Int, height: Int) = (0, 0)) -> TileGridPlan {
        let cornerHeight = cornerWidth * 9 / 16
        let cornerFits = hasCorner && count > 0 && cornerWidth * 3 <= width && cornerHeight * 3 <= height
        let inGrid = count + (hasCorner && !cornerFits ? 1 : 0)
        var corner: Frame?
        if cornerFits {
            let left = position == .topLeft || position == .bottomLeft, top = position == .topLeft || position == .topRight
            let x = left ? cornerMargin : width - cornerWidth - cornerMargin
            let y = top ? cornerMargin : height - cornerHeight - cornerMargin - clearance
            corner = Frame(x: min(max(0, x + dragOffset.x), width - cornerWidth), y: min(max(0, y + dragOffset.y), height - cornerHeight),
                           width: cornerWidth, height: cornerHeight)
        }
        let columns = columns(for: inGrid, width: width, height: height, spacing: spacing, smallestCell: smallestCell)
        return TileGridPlan(tiles: grid(count: inGrid, columns: columns, width: width, height: height, spacing: spacing), corner: corner)
    }

    /// The corner nearest to where a dragged corner tile was let go.
    public static func nearestCorner(to frame: Frame, width: Int, height: Int) -> Corner {
        let left = frame.x + frame.width / 2 < width / 2, top = frame.y + frame.height / 2 < height / 2
        switch (top, left) {
        case (true, true): return .topLeft
        case (true, false): return .topRight
        case (false, true): return .bottomLeft
        case (false, false): return .bottomRight
        }
    }

    /// Columns for `count` tiles: as many as rows, or one more (1, 2, 2, 2, 3, 3, 3, 3, 3, 4…).
    public static func columns(for count: Int) -> Int { max(1, Int(Double(count).squareRoot().rounded(.up))) }

    /// Columns for `count` tiles in `width` × `height`: those of `columns(for:)`, unless another
    /// shape shows a 16:9 picture at least a quarter larger in each cell. A tile crops its video
    /// to fill the cell; side by side in a narrow window (two people on a phone-sized screen),
    /// each cell was a strip a third as wide as it was tall, showing a fifth of the picture,
    /// where one above the other shows nearly all of it. A smaller gain keeps the usual shape:
    /// a cell a little too narrow crops the sides of a picture, which keeps the faces, where a
    /// cell too wide would crop them. No shape gives a tile less than `smallestCell`.
    public static func columns(for count: Int, width: Int, height: Int, spacing: Int, smallestCell: (width: Int, height: Int) = (0, 0)) -> Int {
        let usual = columns(for: count)
        guard count > 1 else { return usual }
        func picture(columns: Int) -> Int? {
            let rows = (count + columns - 1) / columns
            let cellWidth = (width - spacing * (columns - 1)) / columns, cellHeight = (height - spacing * (rows - 1)) / rows
            guard cellWidth >= max(1, smallestCell.width), cellHeight >= max(1, smallestCell.height) else { return nil }
            // The largest 16:9 picture inside the cell.
            let pictureWidth = min(cellWidth, cellHeight * 16 / 9)
            return pictureWidth * (pictureWidth * 9 / 16)
        }
        guard let usualPicture = picture(columns: usual) else { return usual }
        var best = (columns: usual, picture: usualPicture)
        for columns in 1...count where columns != usual {
            if let size = picture(columns: columns), size > best.picture, size * 4 >= usualPicture * 5 { best = (columns, size) }
        }
        return best.columns
    }

    /// Equal cells, row by row; a last row that is not full is centred (five people: the two
    /// of the second row under the middle of the three above, not a gap at its right end).
    static func grid(count: Int, columns: Int, width: Int, height: Int, spacing: Int) -> [Frame] {
        guard count > 0 else { return [] }
        let rows = (count + columns - 1) / columns
        let cellWidth = max(0, (width - spacing * (columns - 1)) / columns)
        let cellHeight = max(0, (height - spacing * (rows - 1)) / rows)
        let inLastRow = count - (rows - 1) * columns
        let lastRowIndent = (columns - inLastRow) * (cellWidth + spacing) / 2
        return (0..<count).map { index in
            let row = index / columns
            return Frame(x: (index % columns) * (cellWidth + spacing) + (row == rows - 1 ? lastRowIndent : 0), y: row * (cellHeight + spacing),
                  width: cellWidth, height: cellHeight)
        }
    }
}

/// The grid's layout and its corner tile's drag (kept on its GtkBox by `SwiftLayouts`).
@MainActor
final class TileGridState: SwiftLayout {
    let spacing: Int
    let cornerClearance: Int
    var tiles: [Widget] = []
    var corner: Widget?
    var cornerClass = ""
    var cornerDescription = ""
    var cornerShown = false
    var position = TileGridPlan.Corner.bottomRight
    var onCornerMoved: (@MainActor (TileGridPlan.Corner) -> Void)?
    /// How far the corner tile has been dragged from its corner; nil while not dragged.
    var dragOffset: (x: Int, y: Int)?
    /// The last allocation's plan and size: where a drag starts and ends.
    private var laidOut: (plan: TileGridPlan, width: Int, height: Int)?

    init(spacing: Int, cornerClearance: Int) {
        self.spacing = spacing
        self.cornerClearance = cornerClearance
    }

    var requestMode: GtkSizeRequestMode { GTK_SIZE_REQUEST_CONSTANT_SIZE }

    /// Every tile, the corner one included.
    private var all: [Widget] { tiles + [corner].compactMap { $0 } }

    /// The most any tile needs across (`GTK_ORIENTATION_HORIZONTAL`) or down: what a grid cell
    /// must give each of them.
    private func smallestCell(_ orientation: GtkOrientation) -> Int {
        all.map { tile in
            var minimum: gint = 0, natural: gint = 0
            gtk_widget_measure(tile.widget, orientation, -1, &minimum, &natural, nil, nil)
            return Int(minimum)
        }.max() ?? 0
    }

    /// The smallest grid that holds every tile, the corner one included (where it goes when
    /// the area is small): the window can always shrink to it.
    func measure(_ orientation: GtkOrientation, forSize: Int) -> (minimum: Int, natural: Int) {
        let count = all.count
        guard count > 0 else { return (0, 0) }
        let columns = TileGridPlan.columns(for: count), rows = (count + columns - 1) / columns
        let lines = orientation == GTK_ORIENTATION_HORIZONTAL ? columns : rows
        let size = lines * smallestCell(orientation) + (lines - 1) * spacing
        return (size, size)
    }

    func allocate(width: Int, height: Int) {
        let smallestCell = (width: smallestCell(GTK_ORIENTATION_HORIZONTAL), height: smallestCell(GTK_ORIENTATION_VERTICAL))
        let plan = TileGridPlan.make(count: tiles.count, hasCorner: corner != nil, width: width, height: height, spacing: spacing,
                                     clearance: cornerClearance, position: position, dragOffset: dragOffset ?? (0, 0), smallestCell: smallestCell)
        laidOut = (plan, width, height)
        // The corner tile's look changes before any tile is placed: making it focusable (or
        // not) queues its allocation anew, and a tile left waiting for one after this
        // allocation is not drawn at all (GTK: "Trying to snapshot … without a current
        // allocation"): the self-view moved into the grid stayed blank until the next resize.
        let shown = plan.corner != nil
        if shown != cornerShown, let corner {
            cornerShown = shown
            // A shadow and an opaque background over the video (neither changes a size), and a
            // hand that says it can be moved; the keyboard reaches it (see `moveCorner`).
            corner.setCSSClass(cornerClass, shown)
            gtk_widget_set_cursor_from_name(corner.widget, shown ? "grab" : nil)
            corner.canFocus = shown
            corner.setAccessibleDescription(shown ? cornerDescription : "")
        }
        let inGrid = tiles + (plan.corner == nil ? [corner].compactMap { $0 } : [])
        for (tile, frame) in zip(inGrid, plan.tiles) { Self.place(tile, frame) }
        if let corner, let frame = plan.corner { Self.place(corner, frame) }
    }

    /// A drag that starts on the corner tile moves it; any other is not ours.
    func dragBegan(at x: Double, _ y: Double) -> Bool {
        guard let frame = laidOut?.plan.corner,
              Double(frame.x) <= x, x < Double(frame.x + frame.width), Double(frame.y) <= y, y < Double(frame.y + frame.height)
        else { return false }
        dragOffset = (0, 0)
        return true
    }

    func dragMoved(by x: Double, _ y: Double, widget: UnsafeMutablePointer<GtkWidget>) {
        guard dragOffset != nil else { return }
        dragOffset = (Int(x), Int(y))
        gtk_widget_queue_allocate(widget)
    }

    /// Let go: the tile settles in the nearest corner.
    func dragEnded(widget: UnsafeMutablePointer<GtkWidget>) {
        guard dragOffset != nil else { return }
        let before = position
        if let laidOut, let frame = laidOut.plan.corner {
            position = TileGridPlan.nearestCorner(to: frame, width: laidOut.width, height: laidOut.height)
        }
        dragOffset = nil
        gtk_widget_queue_allocate(widget)
        if position != before { onCornerMoved?(position) }
    }

    /// An arrow key while the corner tile has the focus moves it to the corner that way
    /// (Left: a left one, Up: a top one…). Returns whether the key was for it.
    func moveCorner(key: guint, widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard cornerShown, let corner, corner.hasFocus else { return false }
        let direction: TileGridPlan.Corner.Direction
        switch Int32(key) {
        case GDK_KEY_Left, GDK_KEY_KP_Left: direction = .left
        case GDK_KEY_Right, GDK_KEY_KP_Right: direction = .right
        case GDK_KEY_Up, GDK_KEY_KP_Up: direction = .up
        case GDK_KEY_Down, GDK_KEY_KP_Down: direction = .down
        default: return false
        }
        let next = position.moved(direction)
        if next != position {
            position = next
            gtk_widget_queue_allocate(widget)
            onCornerMoved?(next)
        }
        return true
    }

    private static func place(_ tile: Widget, _ frame: TileGridPlan.Frame) {
        var box = GtkAllocation(x: gint(frame.x), y: gint(frame.y), width: gint(frame.width), height: gint(frame.height))
        gtk_widget_size_allocate(tile.widget, &box, -1)
    }
}

/// The grid's state and widget, found from the address of one of its event controllers.
@MainActor
private func tileGridState(ofControllerAt address: Int) -> (TileGridState, UnsafeMutablePointer<GtkWidget>)? {
    guard let controller = OpaquePointer(bitPattern: address), let widget = gtk_event_controller_get_widget(controller),
          let state = SwiftLayouts.layout(of: widget) as? TileGridState else { return nil }
    return (state, widget)
}

// Gesture signals arrive on the main thread; pointers cross into the main actor as addresses.
private let tileGridDragBegan: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void = { gesture, x, y, _ in
    let address = Int(bitPattern: gesture)
    MainActor.assumeIsolated {
        guard let (state, _) = tileGridState(ofControllerAt: address) else { return }
        gtk_gesture_set_state(OpaquePointer(bitPattern: address), state.dragBegan(at: x, y) ? GTK_EVENT_SEQUENCE_CLAIMED : GTK_EVENT_SEQUENCE_DENIED)
    }
}

private let tileGridDragMoved: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void = { gesture, x, y, _ in
    let address = Int(bitPattern: gesture)
    MainActor.assumeIsolated {
        guard let (state, widget) = tileGridState(ofControllerAt: address) else { return }
        state.dragMoved(by: x, y, widget: widget)
    }
}

private let tileGridDragEnded: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void = { gesture, _, _, _ in
    let address = Int(bitPattern: gesture)
    MainActor.assumeIsolated {
        guard let (state, widget) = tileGridState(ofControllerAt: address) else { return }
        state.dragEnded(widget: widget)
    }
}

private let tileGridKeyPressed: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { controller, keyval, _, _, _ in
    let address = Int(bitPattern: controller)
    return MainActor.assumeIsolated {
        guard let (state, widget) = tileGridState(ofControllerAt: address) else { return 0 }
        return state.moveCorner(key: keyval, widget: widget) ? 1 : 0
    }
}
