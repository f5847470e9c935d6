import ConfabCore
import GLibBridge

/// We are ringing someone: who, for how long, and Cancel.
@MainActor
final class OutgoingCallWindow {
    let window: Window
    private let elapsedLabel = Label("0:00", cssClasses: ["dim-label", "numeric"])
    private var timer: RepeatingTimer?
    private var secondsRinging = 0

    init(application: Application, callViewModel: CallViewModel) {
        let members = callViewModel.outgoingCallMembers.map(\.user)
        let names = members.map(\.name).joined(separator: ", ")
        window = Window(application: application, title: "Calling \(names) – Confab", width: 480, height: 420)
        let status = Label("Calling…", cssClasses: ["title-2"])
        status.setAccessibleLabel("Calling \(names)")
        let cancel = Button(iconName: "call-stop-symbolic", accessibleLabel: "Cancel call")
        cancel.addCSSClass("destructive-action")
        cancel.addCSSClass("circular")
        cancel.addCSSClass("call-button")
        cancel.align(horizontal: .center)
        cancel.onClicked { [weak callViewModel] in Task { await callViewModel?.hangUp() } }

        let column = Box(.vertical, spacing: 18, children: [
            ParticipantAvatars(users: members, size: 96).view, status, elapsedLabel, cancel,
        ])
        column.align(horizontal: .center, vertical: .center)
        column.expand()
        column.setMargins(24)
        window.setContent(Box(.vertical, children: [HeaderBar(title: "Calling"), column]))
        window.addShortcut("Escape") { [weak callViewModel] in Task { await callViewModel?.hangUp() } }
        window.onCloseRequest { [weak callViewModel] in
            Task { await callViewModel?.hangUp() }
            return true
        }
        timer = RepeatingTimer(interval: 1) { [weak self] in
            guard let self else { return }
            self.secondsRinging += 1
            self.elapsedLabel.text = formatElapsed(seconds: self.secondsRinging)
        }
        cancel.grabFocus()
    }

    func present() { window.present() }

    func close() {
        timer?.cancel()
        window.close()
    }
}
