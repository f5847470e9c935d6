import ConfabCore
import GLibBridge

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
    private let picture = VideoPicture()
    private let caption = Label("", cssClasses: ["tile-name"])
    private let placeholderLabel = Label("You are presenting your screen", cssClasses: ["title-2"])
    /// The session whose screen frames this view shows (nil while we share).
    private(set) var sharingSession: String?

    init() {
        view = Stack()
        let screen = Overlay(child: picture)
        caption.align(horizontal: .start, vertical: .end)
        caption.setMargins(8)
        screen.addOverlay(caption)
        let icon = Image(iconName: "video-display-symbolic", pixelSize: 64)
        let hint = Label("Others see your screen. It is not shown here, so it does not repeat inside itself.", cssClasses: ["dim-label"])
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
        if sharingSession != participant?.sessionID { picture.clear() }
        sharingSession = participant?.sessionID
        guard let participant else {
            view.visiblePageName = "own-share"
            view.setAccessibleLabel("Your shared screen (not shown here)")
            return
        }
        view.visiblePageName = "screen"
        caption.text = "\(participant.name) is presenting"
        view.setAccessibleLabel("\(participant.name)’s shared screen")
        picture.setAccessibleLabel("Screen of \(participant.name)")
    }

    func show(_ frame: VideoFrame) { picture.show(frame) }
}
