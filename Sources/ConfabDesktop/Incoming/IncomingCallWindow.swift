import ConfabCore
import GLibBridge
import GtkBridge

/// Someone is ringing us: who, and Accept / Decline.
@MainActor
final class IncomingCallWindow {
    let window: Window
    /// How you will answer: microphone and camera (no preview: a ring must not turn the
    /// camera on by itself).
    private let media: RingingControls
    /// Told when the window closes, whether for the call or not.
    var onClose: (@MainActor () -> Void)?

    init(application: Application, callViewModel: CallViewModel, call: IncomingCall) {
        media = RingingControls(localMedia: callViewModel.localMedia, preview: nil)
        window = Window(application: application, title: tr("%@ is calling – Confab", "\(call.caller.name)"), width: 480, height: 420)
        let kind = call.video ? tr("Incoming video call") : tr("Incoming call")
        let status = Label(kind, cssClasses: ["title-2"])
        // A named call says which ("standup"); a call named after its people says nothing more.
        let callName = Label(CallTitle.isGenerated(call.id) ? "" : CallTitle.title(of: call.cid, with: []), cssClasses: ["dim-label"])
        callName.isVisible = !callName.text.isEmpty

        let accept = Button(iconName: "call-start-symbolic", accessibleLabel: tr("Accept"))
        accept.addCSSClass("success")
        accept.addCSSClass("suggested-action")
        accept.addCSSClass("circular")
        accept.addCSSClass("call-button")
        accept.tooltip = tr("Accept (Enter)")
        let decline = Button(iconName: "call-stop-symbolic", accessibleLabel: tr("Decline"))
        decline.addCSSClass("destructive-action")
        decline.addCSSClass("circular")
        decline.addCSSClass("call-button")
        decline.tooltip = tr("Decline (Escape)")
        let acceptAudioOnly = Button(iconName: "camera-disabled-symbolic", accessibleLabel: tr("Accept without video"))
        acceptAudioOnly.addCSSClass("circular")
        acceptAudioOnly.addCSSClass("call-button")
        acceptAudioOnly.tooltip = tr("Accept with the camera off")
        acceptAudioOnly.onClicked { [weak callViewModel] in
            Task { await callViewModel?.acceptCall(call.cid, video: false) }
        }
        // Each round button has its word under it: icons alone don't say "decline".
        let buttons = Box(.horizontal, spacing: 24, children: [
            Self.labelled(decline, tr("Decline")), Self.labelled(acceptAudioOnly, tr("Video off")), Self.labelled(accept, tr("Accept")),
        ])
        buttons.align(horizontal: .center)

        let answer: @MainActor () -> Void = { [weak callViewModel] in
            Task { await callViewModel?.acceptCall(call.cid) }
        }
        let refuse: @MainActor () -> Void = { [weak callViewModel] in
            Task { await callViewModel?.rejectCall(call.cid) }
        }
        accept.onClicked(answer)
        decline.onClicked(refuse)
        window.addShortcut("Return", answer)
        window.addShortcut("KP_Enter", answer)
        window.addShortcut("Escape", refuse)
        window.onCloseRequest {
            refuse()
            return true
        }

        let column = Box(.vertical, spacing: 18, children: [
            ParticipantAvatars(users: [call.caller], size: 96).view, status, callName, media.view, buttons,
        ])
        column.align(horizontal: .center, vertical: .center)
        column.expand()
        column.setMargins(24)
        window.setContent(Box(.vertical, children: [HeaderBar(title: ""), column]))
        accept.grabFocus()
    }

    private static func labelled(_ button: Button, _ text: String) -> Widget {
        let column = Box(.vertical, spacing: 6, children: [button, Label(text, cssClasses: ["caption"])])
        button.align(horizontal: .center)
        return column
    }

    func present() {
        media.start()
        window.present()
    }

    func close() {
        media.stop()
        window.close()
        onClose?()
    }
}
