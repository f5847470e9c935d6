import CGLib
import CGtk
import CAdwaita
import GLibBridge

/// GtkBox: children in a row or a column.
@MainActor
public final class Box: Widget {
    public enum Orientation { case horizontal, vertical }

    public init(_ orientation: Orientation, spacing: Int = 0, children: [Widget] = []) {
        super.init(gtk_box_new(orientation == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, gint(spacing)))
        children.forEach(append)
    }

    /// A box from a `.ui` file (its children are the file's).
    init(built pointer: UnsafeMutablePointer<GtkWidget>) { super.init(pointer) }

    private var children: [Widget] = []

    public func append(_ child: Widget) {
        gtk_box_append(c(), child.c())
        children.append(child)
    }

    public func remove(_ child: Widget) {
        gtk_box_remove(c(), child.c())
        children.removeAll { $0 === child }
    }

    /// Removes every child added through this wrapper.
    public func removeAll() { children.forEach(remove) }
    public var isHomogeneous: Bool {
        get { gtk_box_get_homogeneous(c()) != 0 }
        set { gtk_box_set_homogeneous(c(), newValue ? 1 : 0) }
    }
}

/// GtkStack: one visible page at a time, each page named.
@MainActor
public final class Stack: Widget {
    /// `animated: false` switches at once (pages that replace each other, where a crossfade
    /// would keep the old page running a moment longer).
    public init(animated: Bool = true) {
        super.init(gtk_stack_new())
        gtk_stack_set_transition_type(c(), animated ? GTK_STACK_TRANSITION_TYPE_CROSSFADE : GTK_STACK_TRANSITION_TYPE_NONE)
    }

    private var pages: [(name: String, widget: Widget)] = []

    public func addPage(_ child: Widget, name: String) {
        gtk_stack_add_named(c(), child.c(), name)
        pages.append((name, child))
        markHiddenPages()
    }

    /// A page with a title, for a `StackSwitcher` to show.
    public func addPage(_ child: Widget, name: String, title: String) {
        gtk_stack_add_titled(c(), child.c(), name, title)
        pages.append((name, child))
        markHiddenPages()
    }

    /// Runs `body` when another page is shown (a switcher was clicked, or `visiblePageName` set).
    @discardableResult
    public func onPageChanged(_ body: @escaping @MainActor () -> Void) -> SignalConnection {
        onPropertyChange("visible-child-name") { [weak self] in
            self?.markHiddenPages()
            body()
        }
    }

    /// Whether the stack is as big as its biggest page (GTK's default). Off, it takes the size
    /// of the page shown, so a large hidden page doesn't keep the window from shrinking.
    public var sizesToEveryPage: Bool {
        get { gtk_stack_get_hhomogeneous(c()) != 0 }
        set {
            gtk_stack_set_hhomogeneous(c(), newValue ? 1 : 0)
            gtk_stack_set_vhomogeneous(c(), newValue ? 1 : 0)
        }
    }

    /// Takes a page out of the stack (GTK lets go of it; its controllers and shortcuts go too).
    public func removePage(_ child: Widget) {
        guard let index = pages.firstIndex(where: { $0.widget === child }) else { return }
        pages.remove(at: index)
        gtk_stack_remove(c(), child.c())
    }

    public var visiblePageName: String? {
        get { string(from: gtk_stack_get_visible_child_name(c())) }
        set {
            guard let newValue else { return }
            gtk_stack_set_visible_child_name(c(), newValue)
            markHiddenPages()
        }
    }

    /// GTK 4.8 leaves the stack's other pages "visible" to assistive technologies; a screen
    /// reader would announce the camera preview while the avatar is on screen. Mark them hidden.
    private func markHiddenPages() {
        let visible = visiblePageName
        for page in pages { confab_accessible_set_hidden(page.widget.widget, page.name == visible ? 0 : 1) }
    }
}

/// GtkStackSwitcher: a linked row of buttons, one per titled page of a stack.
@MainActor
public final class StackSwitcher: Widget {
    public init(stack: Stack) {
        super.init(gtk_stack_switcher_new())
        gtk_stack_switcher_set_stack(c(), stack.c())
    }
}

/// GtkOverlay: a main child with widgets floating above it.
@MainActor
public final class Overlay: Widget {
    public init(child: Widget) {
        super.init(gtk_overlay_new())
        gtk_overlay_set_child(c(), child.c())
    }
    public func addOverlay(_ child: Widget) { gtk_overlay_add_overlay(c(), child.c()) }
    /// An overlay that lets clicks through to what is under it (a badge on a button).
    public func addPassThroughOverlay(_ child: Widget) {
        gtk_overlay_add_overlay(c(), child.c())
        gtk_widget_set_can_target(child.widget, 0)
    }
}

/// AdwClamp: keeps content at a readable width on wide windows.
@MainActor
public final class Clamp: Widget {
    public init(maximumWidth: Int, child: Widget) {
        super.init(adw_clamp_new())
        adw_clamp_set_maximum_size(c(), gint(maximumWidth))
        adw_clamp_set_child(c(), child.c())
    }

    /// Lets go of the child (so that it can be placed elsewhere).
    public func removeChild() { adw_clamp_set_child(c(), nil) }
}

/// GtkAspectFrame: gives its child the largest box of one shape that fits, centred.
@MainActor
public final class AspectFrame: Widget {
    /// `ratio`: width ÷ height; `verticalAlignment`: where the child sits in spare height
    /// (0 the top, 1 the bottom).
    public init(ratio: Double, verticalAlignment: Double = 0.5) {
        super.init(gtk_aspect_frame_new(0.5, Float(verticalAlignment), Float(ratio), 0))
    }

    private var child: Widget?

    /// Puts `child` in the frame (nil lets go of the one there, so that it can be placed elsewhere).
    public func setChild(_ child: Widget?) {
        self.child = child
        gtk_aspect_frame_set_child(c(), child?.widget)
    }
}

/// GtkScrolledWindow with vertical scrolling only.
@MainActor
public final class ScrolledWindow: Widget {
    public init(child: Widget) {
        super.init(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(c(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(c(), child.c())
    }

    /// Keeps the view at the end of its content while it is there (a chat: the newest message
    /// comes into view), and leaves it where it is once the user scrolled back to read.
    public func followEnd() {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(c()) else { return }
        let reference = AdjustmentReference(adjustment)
        let follower = EndFollower(reference)
        reference.onSignal("value-changed") { follower.viewMoved() }
        reference.onSignal("changed") { follower.contentChanged() }
        endFollower = follower
        adjustments.append(reference)
    }

    /// Scrolls to the end now and follows it again (`followEnd`): the user sent a message.
    public func scrollToEnd() { endFollower?.scrollToEnd() }

    private var endFollower: EndFollower?

    /// A view that scrolls both ways when its content is bigger than it, else gives the content
    /// its whole size (a picture that may shrink simply fits).
    public init(panning child: Widget) {
        super.init(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(c(), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(c(), child.c())
    }

    /// A strip `height` pixels tall that scrolls when its content is bigger: a video's frame
    /// size (its natural height) never makes it taller, so the large view beside it gets the room.
    public init(strip child: Widget, height: Int) {
        super.init(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(c(), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_min_content_height(c(), gint(height))
        gtk_scrolled_window_set_propagate_natural_height(c(), 0)
        gtk_scrolled_window_set_child(c(), child.c())
        expand(horizontally: true, vertically: false)
    }

    /// The part of the content shown, horizontally, in the content's coordinates; nil before
    /// the view is laid out.
    public var horizontalViewport: ClosedRange<Double>? {
        guard let adjustment = gtk_scrolled_window_get_hadjustment(c()) else { return nil }
        let start = gtk_adjustment_get_value(adjustment), size = gtk_adjustment_get_page_size(adjustment)
        return size > 0 ? start...(start + size) : nil
    }

    /// Runs `body` when the view scrolls sideways or its size or content's size changes.
    public func onHorizontalViewportChange(_ body: @escaping @MainActor () -> Void) {
        guard let adjustment = gtk_scrolled_window_get_hadjustment(c()) else { return }
        let reference = AdjustmentReference(adjustment)
        reference.onSignal("value-changed", body)
        reference.onSignal("changed", body)
        adjustments.append(reference)
    }

    /// The height of the part of the content shown; nil before the view is laid out.
    public var viewportHeight: Int? {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(c()) else { return nil }
        let size = gtk_adjustment_get_page_size(adjustment)
        return size > 0 ? Int(size) : nil
    }

    /// Runs `body` when the view's or its content's height changes (the window resized).
    public func onViewportHeightChange(_ body: @escaping @MainActor () -> Void) {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(c()) else { return }
        let reference = AdjustmentReference(adjustment)
        reference.onSignal("changed", body)
        adjustments.append(reference)
    }

    private var adjustments: [AdjustmentReference] = []
}

/// The scrolled window's adjustment, held while we listen to it.
private final class AdjustmentReference: GObjectReference {
    init(_ adjustment: UnsafeMutablePointer<GtkAdjustment>) { super.init(adopting: gpointer(adjustment)) }

    var adjustment: UnsafeMutablePointer<GtkAdjustment> { UnsafeMutableRawPointer(raw).assumingMemoryBound(to: GtkAdjustment.self) }
}

/// `ScrolledWindow.followEnd`: whether the view is at the end, and moving it there again when
/// the content grows.
@MainActor
private final class EndFollower {
    /// Weak: the adjustment's own signal handlers hold this follower.
    private weak var reference: AdjustmentReference?
    private var isAtEnd = true
    private var isScrollPending = false

    init(_ reference: AdjustmentReference) { self.reference = reference }

    /// The view moved (the user, or our own scrolling): is it at the end now?
    func viewMoved() {
        guard let adjustment = reference?.adjustment else { return }
        // A pixel's slack: the content's height and the view's are fractional in places.
        isAtEnd = gtk_adjustment_get_value(adjustment) >= Self.end(of: adjustment) - 1
    }

    /// The content or the view changed size (told during layout).
    func contentChanged() {
        if isAtEnd { scheduleScroll() }
    }

    func scrollToEnd() {
        isAtEnd = true
        scheduleScroll()
    }

    /// The scroll waits for the main loop's next turn. Set while GTK lays the view out, as the
    /// adjustment tells of its new size, the value moved the scroll bar but not the content:
    /// the view drew the content where the old value had it, short of the end by whatever had
    /// just been added (a chat showed every new message one update late, below the view).
    private func scheduleScroll() {
        guard !isScrollPending else { return }
        isScrollPending = true
        MainLoop.after(seconds: 0) { [weak self] in
            guard let self else { return }
            self.isScrollPending = false
            guard let adjustment = self.reference?.adjustment else { return }
            gtk_adjustment_set_value(adjustment, Self.end(of: adjustment))
        }
    }

    /// The value that shows the content's end.
    private static func end(of adjustment: UnsafeMutablePointer<GtkAdjustment>) -> Double {
        gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
    }
}

/// AdwPreferencesGroup: a titled list of rows.
@MainActor
public final class PreferencesGroup: Widget {
    public init(title: String, rows: [Widget] = []) {
        super.init(adw_preferences_group_new())
        adw_preferences_group_set_title(c(), title)
        rows.forEach(add)
    }
    public func add(_ row: Widget) { adw_preferences_group_add(c(), row.c()) }
}

/// AdwToastOverlay: short messages over its child ("Couldn't join: …").
@MainActor
public final class ToastOverlay: Widget {
    public init(child: Widget) {
        super.init(adw_toast_overlay_new())
        adw_toast_overlay_set_child(c(), child.c())
    }

    init(built pointer: UnsafeMutablePointer<GtkWidget>) { super.init(pointer) }

    public func showToast(_ title: String) {
        adw_toast_overlay_add_toast(c(), newToast(title)) // takes ownership of the toast
    }

    /// A toast whose words wrap onto more lines where one would not hold them: libadwaita's
    /// own title ends in "…", and in a narrow window (a call at 360 px) "The network connection
    /// dropped" read "The network connection d…".
    fileprivate func newToast(_ title: String) -> OpaquePointer {
        let toast = adw_toast_new("")!
        setTitle(title, of: toast)
        return toast
    }

    /// Gives `toast` a title label saying `title`, in libadwaita 1.2's toast, which lays a
    /// wrapping title out as follows:
    /// - its width is what the label asks for, so the label asks for its whole line
    ///   (natural-wrap-mode none: by default a wrapping label asks for a "pleasing" shape, and a
    ///   wide window's toast came on two short lines, one that grew wrapping in its first width);
    /// - it is given up to the overlay's width, close button or not, so the lines are kept to
    ///   what that width leaves beside the button (~130 px of margins, padding and button; a
    ///   character ~8 px), or the button was pushed out of the toast;
    /// - it is bold as libadwaita's title is, not with its "heading" style class, under which
    ///   the label did not wrap at all and ran out of the toast.
    /// A new label each time: one whose words change in place is not measured again.
    fileprivate func setTitle(_ title: String, of toast: OpaquePointer) {
        let label = gtk_label_new(title)!
        let text = OpaquePointer(label)
        gtk_label_set_wrap(text, 1)
        gtk_label_set_wrap_mode(text, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_natural_wrap_mode(text, GTK_NATURAL_WRAP_NONE)
        gtk_label_set_xalign(text, 0)
        let width = Int(gtk_widget_get_width(widget))
        if width > 0 { gtk_label_set_max_width_chars(text, gint(max(12, (width - 130) / 8))) }
        if let bold = pango_attr_list_from_string("0 -1 weight bold") {
            gtk_label_set_attributes(text, bold)
            pango_attr_list_unref(bold)
        }
        adw_toast_set_custom_title(toast, label)
    }

    /// Shows `title` in `previous`'s place while that toast is up or waiting its turn (its words
    /// changed, its time on screen started again: libadwaita's way of growing a toast); else
    /// as a new toast, returned so that it can grow in turn.
    public func showToast(_ title: String, growing previous: GrowingToast?) -> GrowingToast {
        if let previous, !previous.isDismissed {
            setTitle(title, of: previous.c())
            // A toast added again is not added twice: shown, its timeout restarts; queued, it
            // moves up. The overlay takes a reference each time.
            g_object_ref(previous.raw)
            adw_toast_overlay_add_toast(c(), previous.c())
            return previous
        }
        let toast = GrowingToast(newToast(title))
        g_object_ref(toast.raw)
        adw_toast_overlay_add_toast(c(), toast.c())
        return toast
    }
}

/// A toast kept after it is shown, to be said again grown (`ToastOverlay.showToast(_:growing:)`).
@MainActor
public final class GrowingToast: GObjectReference {
    /// Gone from the screen (timed out, closed): it cannot be shown again.
    public private(set) var isDismissed = false

    fileprivate init(_ toast: OpaquePointer) {
        super.init(takingOwnershipOf: gpointer(toast))
        // The handler holds the wrapper weakly: the toast (which the overlay may keep a moment
        // longer) never keeps it alive.
        onSignal("dismissed") { [weak self] in self?.isDismissed = true }
    }
}

/// AdwHeaderBar with an AdwWindowTitle.
@MainActor
public final class HeaderBar: Widget {
    private let titleWidget: OpaquePointer

    /// The title shown now.
    public private(set) var title: String

    public init(title: String, subtitle: String = "") {
        self.title = title
        titleWidget = OpaquePointer(adw_window_title_new(title, subtitle))
        super.init(adw_header_bar_new())
        adw_header_bar_set_title_widget(c(), titleWidget.c())
    }

    /// A header bar from a `.ui` file; its AdwWindowTitle is the file's, or a new one.
    init(built pointer: UnsafeMutablePointer<GtkWidget>) {
        let bar = UnsafeMutableRawPointer(pointer)
        if let existing = adw_header_bar_get_title_widget(bar.c()),
           g_type_check_instance_is_a(UnsafeMutableRawPointer(existing).assumingMemoryBound(to: GTypeInstance.self), adw_window_title_get_type()) != 0 {
            titleWidget = OpaquePointer(existing)
        } else {
            titleWidget = OpaquePointer(adw_window_title_new("", ""))
            adw_header_bar_set_title_widget(bar.c(), titleWidget.c())
        }
        title = string(from: adw_window_title_get_title(titleWidget)) ?? ""
        super.init(pointer)
    }

    public func setTitle(_ title: String, subtitle: String) {
        self.title = title
        adw_window_title_set_title(titleWidget, title)
        adw_window_title_set_subtitle(titleWidget, subtitle)
    }

    public func packStart(_ child: Widget) { adw_header_bar_pack_start(c(), child.c()) }
    public func packEnd(_ child: Widget) { adw_header_bar_pack_end(c(), child.c()) }

    /// Hides the window-manager buttons (the lobby has its own close button).
    public func showWindowButtons(_ show: Bool) {
        adw_header_bar_set_show_end_title_buttons(c(), show ? 1 : 0)
        adw_header_bar_set_show_start_title_buttons(c(), show ? 1 : 0)
    }
}

/// AdwStatusPage: an icon, a title and a description over optional content.
@MainActor
public final class StatusPage: Widget {
    public init(iconName: String?, title: String, description: String?, child: Widget? = nil) {
        super.init(adw_status_page_new())
        if let iconName { adw_status_page_set_icon_name(c(), iconName) }
        adw_status_page_set_title(c(), title)
        if let description { adw_status_page_set_description(c(), description) }
        if let child { adw_status_page_set_child(c(), child.c()) }
    }

    init(built pointer: UnsafeMutablePointer<GtkWidget>) { super.init(pointer) }

    public func setDescription(_ text: String) { adw_status_page_set_description(c(), text) }
    public func setIconName(_ name: String) { adw_status_page_set_icon_name(c(), name) }
}

/// AdwFlap: a sidebar beside the content, revealed and hidden; when the window is too narrow
/// for both it floats over the content instead of squeezing it.
///
/// The sidebar opens only when asked. Left to itself (unlocked), AdwFlap hides a sidebar as the
/// window becomes too narrow for it and *opens* it as the window widens again, whether or not
/// it was open before: in a call, a window made narrow and then wide again showed the
/// participants nobody had asked for, in 320 px taken from the video. Here the flap is locked
/// and the folding is followed by hand: an open sidebar is hidden as the window narrows (it
/// would cover the video) and comes back as it widens; a closed one stays closed.
@MainActor
public final class Flap: Widget {
    /// Whether the sidebar was open when the window became too narrow for it, and has not
    /// been opened or closed since.
    private var reopensWhenUnfolded = false
    private var isFolding = false

    public init(content: Widget, sidebar: Widget) {
        super.init(adw_flap_new())
        adw_flap_set_content(c(), content.c())
        adw_flap_set_flap(c(), sidebar.c())
        // The sidebar sits at the end (right in left-to-right languages), as in GNOME apps.
        adw_flap_set_flap_position(c(), GTK_PACK_END)
        adw_flap_set_fold_policy(c(), ADW_FLAP_FOLD_POLICY_AUTO)
        adw_flap_set_locked(c(), 1)
        adw_flap_set_reveal_flap(c(), 0)
        adw_flap_set_swipe_to_open(c(), 0)
        // Both handlers live as long as the flap (the handlers hold it weakly).
        onPropertyChange("folded") { [weak self] in self?.foldedChanged() }
        onPropertyChange("reveal-flap") { [weak self] in self?.revealChanged() }
    }

    public var isRevealed: Bool {
        get { adw_flap_get_reveal_flap(c()) != 0 }
        set { adw_flap_set_reveal_flap(c(), newValue ? 1 : 0) }
    }

    public var isFolded: Bool { adw_flap_get_folded(c()) != 0 }

    private func foldedChanged() {
        if isFolded {
            let wasRevealed = isRevealed
            isFolding = true
            isRevealed = false
            isFolding = false
            reopensWhenUnfolded = wasRevealed
        } else {
            if reopensWhenUnfolded { isRevealed = true }
            reopensWhenUnfolded = false
        }
    }

    /// Opened or closed while folded (a button, Escape, a click beside it): that choice stands
    /// when the window widens.
    private func revealChanged() {
        if !isFolding { reopensWhenUnfolded = false }
    }

    /// Runs `body` when the sidebar is shown or hidden (also by Escape or a click outside
    /// while it floats over the content).
    @discardableResult
    public func onRevealChanged(_ body: @escaping @MainActor () -> Void) -> SignalConnection {
        onPropertyChange("reveal-flap", body)
    }
}

/// GtkFlowBox used as a wrapping row: children sit on one line while it fits and move to the
/// next line when the window is narrow (the call's control groups on a phone-sized window).
@MainActor
public final class WrappingBox: Widget {
    public init(spacing: Int, children: [Widget] = []) {
        super.init(gtk_flow_box_new())
        gtk_flow_box_set_selection_mode(c(), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(c(), 0)
        gtk_flow_box_set_column_spacing(c(), guint(spacing))
        gtk_flow_box_set_row_spacing(c(), guint(spacing))
        gtk_flow_box_set_min_children_per_line(c(), 1)
        gtk_flow_box_set_max_children_per_line(c(), 32)
        children.forEach(append)
    }

    public func append(_ child: Widget) {
        gtk_flow_box_insert(c(), child.widget, -1)
        // The flow box wraps each child in a focusable cell; Tab should reach the buttons,
        // not stop on the cells around them.
        if let cell = gtk_widget_get_parent(child.widget) { gtk_widget_set_focusable(cell, 0) }
        gtk_widget_set_halign(child.widget, GTK_ALIGN_CENTER)
    }
}

/// GtkWindowHandle: dragging anywhere on its child moves the window (a small window without
/// a title bar, such as the minimized call).
@MainActor
public final class WindowHandle: Widget {
    public init(child: Widget) {
        super.init(gtk_window_handle_new())
        gtk_window_handle_set_child(c(), child.c())
    }
}
