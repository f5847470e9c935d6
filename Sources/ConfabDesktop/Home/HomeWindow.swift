import Foundation
import ConfabCore
import GLibBridge

/// The idle screen: open the lobby of a call by its name.
@MainActor
final class HomeWindow {
    let window: Window
    private let callName = Entry(placeholder: "Call name, e.g. standup")
    private let toasts: ToastOverlay

    init(application: Application, callViewModel: CallViewModel) {
        window = Window(application: application, title: "Confab", width: 560, height: 520)
        let openButton = Button(label: "Open lobby")
        openButton.addCSSClass("suggested-action")
        openButton.addCSSClass("pill")
        openButton.align(horizontal: .center)
        callName.setAccessibleLabel("Call name")
        let form = Box(.vertical, spacing: 18, children: [callName, openButton])
        let page = StatusPage(iconName: "camera-web-symbolic", title: "Join a call",
                              description: "Signed in as \(callViewModel.currentUser.name). Enter the call’s name to check your camera and microphone before joining.",
                              child: Clamp(maximumWidth: 360, child: form))
        toasts = ToastOverlay(child: page)
        toasts.expand()
        window.setContent(Box(.vertical, children: [HeaderBar(title: "Confab"), toasts]))
        window.setDefaultWidget(openButton)

        let open: @MainActor () -> Void = { [weak self, weak callViewModel] in
            guard let self, let callViewModel else { return }
            guard let call = CallID(parsing: self.callName.text.trimmingCharacters(in: .whitespaces)) else {
                self.toasts.showToast("Call names use letters, digits, “-” and “_”, optionally after a type: default:standup")
                return
            }
            callViewModel.enterLobby(callType: call.type, callId: call.id, members: [])
        }
        openButton.onClicked(open)
        callName.onActivate(open)
    }

    func present() {
        window.present()
        callName.grabFocus()
    }

    func close() { window.close() }
}
