import ConfabCore
import ConfabMedia
import GLibBridge
import GtkBridge

/// We are ringing someone: who, for how long, and Cancel.
@MainActor
final class OutgoingCallPage: MainWindowPage {
    let content: Widget
    let title: String
    private let elapsedLabel = Label("0:00", cssClasses: ["dim-label", "numeric"])
    private let cancel = Button(iconName: "call-stop-symbolic", accessibleLabel: tr("Cancel call"))
    private var timer: RepeatingTimer?
    private var secondsRinging = 0
    private weak var callViewModel: CallViewModel?
    private let media: RingingControls
    /// Told when the page closes, whether for the call or not.
    var onClose: (@MainActor () -> Void)?

    init(callViewModel: CallViewModel, preview: CameraPreview? = nil, camera: @escaping @MainActor () -> MediaDevice? = { nil }) {
        self.callViewModel = callViewModel
        media = RingingControls(localMedia: callViewModel.localMedia, preview: preview, camera: camera)
        let members = callViewModel.outgoingCallMembers.map(\.user)
        let names = members.map(\.name).joined(separator: ", ")
        title = tr("Calling %@ – Confab", "\(names)")
        let status = Label(tr("Calling %@…", "\(names)"), cssClasses: ["title-2"])
        status.wrap()
        cancel.tooltip = tr("Cancel the call (Escape)")
        cancel.addCSSClass("destructive-action")
        cancel.addCSSClass("circular")
        cancel.addCSSClass("call-button")
        cancel.align(horizontal: .center)
        cancel.onClicked { [weak callViewModel] in Task { await callViewModel?.hangUp() } }
        let cancelLabel = Label(tr("Cancel"), cssClasses: ["caption"])
        let cancelColumn = Box(.vertical, spacing: 6, children: [cancel, cancelLabel])
        cancelColumn.align(horizontal: .center)

        let column = Box(.vertical, spacing: 18, children: [
            ParticipantAvatars(users: members, size: 96).view, status, elapsedLabel, media.view, cancelColumn,
        ])
        column.align(horizontal: .center, vertical: .center)
        column.expand()
        column.setMargins(24)
        let header = HeaderBar(title: CallTitle.withPeople(members))
        header.packEnd(MainMenu.button())
        content = Box(.vertical, children: [header, column])
        content.addShortcut("Escape") { [weak callViewModel] in Task { await callViewModel?.hangUp() } }
        timer = RepeatingTimer(interval: 1) { [weak self] in
            guard let self else { return }
            self.secondsRinging += 1
            self.elapsedLabel.text = formatElapsed(seconds: self.secondsRinging)
        }
    }

    func shown(in window: Window) {
        media.start()
        cancel.grabFocus()
    }

    /// Closing the window cancels the ring: nobody should be rung by a window no longer shown.
    func closeRequested() -> Bool {
        Task { [weak callViewModel] in await callViewModel?.hangUp() }
        return true
    }

    func close() {
        timer?.cancel()
        media.stop()
        onClose?()
    }
}
