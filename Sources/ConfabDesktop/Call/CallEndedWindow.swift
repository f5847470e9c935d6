import ConfabCore
import GLibBridge

/// After a call ends for a reason other than our own hang-up: what happened, and a way back.
@MainActor
final class CallEndedWindow {
    let window: Window

    init(application: Application, callViewModel: CallViewModel, ended: EndedCall) {
        window = Window(application: application, title: "Call ended – Confab", width: 480, height: 400)
        let back = Button(label: "Back")
        back.addCSSClass("suggested-action")
        back.addCSSClass("pill")
        back.align(horizontal: .center)
        back.onClicked { [weak callViewModel] in callViewModel?.dismissEndedCall() }
        let page = StatusPage(iconName: "call-missed-symbolic", title: "Call ended", description: ended.reason, child: back)
        window.setContent(Box(.vertical, children: [HeaderBar(title: ended.call?.id ?? "Call"), page]))
        window.setDefaultWidget(back)
        window.addShortcut("Escape") { [weak callViewModel] in callViewModel?.dismissEndedCall() }
        back.grabFocus()
    }

    func present() { window.present() }
    func close() { window.close() }
}
