import ConfabCore
import GLibBridge
import GtkBridge

/// A screen being shared in the call: ours, or another participant's.
enum SharedScreen: Equatable {
    case ours
    case participant(CallParticipant)

    /// Identifies the share for re-arranging: "ours" or the sharer's session id.
    var key: String {
        switch self {
        case .ours: "ours"
        case .participant(let participant): participant.sessionID
        }
    }
}

/// The share layout's large view: another participant's shared screen, or — when we share — a
/// placeholder instead of our own screen, which would otherwise be captured again inside itself
/// (a mirror loop). Stateless: `update` shows whose screen it is; `show(_:)` shows a frame.
@MainActor
final class ScreenshareView {
    let view: Stack
    /// The whole screen is always shown (never cropped like a camera tile); "Actual size" shows
    /// it pixel for pixel, to read small text, panning with the scroll bars.
    private let picture = VideoPicture(fit: .contain)
    private let actualSize = ToggleButton(iconName: "zoom-original-symbolic", accessibleLabel: tr("Actual size"))
    private let caption = Label("", cssClasses: ["tile-name"])
    private let placeholderLabel = Label(tr("You are presenting your screen"), cssClasses: ["title-2"])
    /// The session whose screen frames this view shows (nil while we share).
    private(set) var sharingSession: String?

    init() {
        view = Stack()
        let screen = Overlay(child: ScrolledWindow(panning: picture))
        caption.align(horizontal: .start, vertical: .end)
        caption.setMargins(8)
        screen.addOverlay(caption)
        actualSize.tooltip = tr("Show the screen at its actual size")
        actualSize.addCSSClass("osd")
        actualSize.addCSSClass("circular")
        actualSize.align(horizontal: .end, vertical: .start)
        actualSize.setMargins(8)
        actualSize.onToggled { [weak self] actual in self?.showActualSize(actual) }
        screen.addOverlay(actualSize)
        let icon = Image(iconName: "video-display-symbolic", pixelSize: 64)
        let hint = Label(tr("Others see your screen. It is not shown here, so it does not repeat inside itself."), cssClasses: ["dim-label"])
        hint.wrap()
        let placeholder = Box(.vertical, spacing: 12, children: [icon, placeholderLabel, hint])
        placeholder.align(horizontal: .center, vertical: .center)
        view.addPage(screen, name: "screen")
        view.addPage(placeholder, name: "own-share")
        view.addCSSClass("tile")
        view.clipChildren()
        view.expand()
    }

    /// Shows `participant`'s screen, or our placeholder when `participant` is nil.
    func update(participant: CallParticipant?) {
        if sharingSession != participant?.sessionID {
            picture.clear()
            // Each new share starts fitted to the view.
            actualSize.isActive = false
            showActualSize(false)
        }
        sharingSession = participant?.sessionID
        guard let participant else {
            view.visiblePageName = "own-share"
            view.setAccessibleLabel(tr("Your shared screen (not shown here)"))
            return
        }
        view.visiblePageName = "screen"
        caption.text = tr("%@ is presenting", "\(participant.name)")
        view.setAccessibleLabel(tr("%@’s shared screen", "\(participant.name)"))
        picture.setAccessibleLabel(tr("Screen of %@", "\(participant.name)"))
    }

    func show(_ frame: VideoFrame) { picture.show(frame) }

    private func showActualSize(_ actual: Bool) {
        picture.canShrink = !actual
        actualSize.tooltip = actual ? tr("Fit the screen to the window") : tr("Show the screen at its actual size")
    }
}
