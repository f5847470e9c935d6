import ConfabCore
import GLibBridge

/// After a call ends for a reason other than our own hang-up: what happened, and a way back.
@MainActor
final class CallEndedPage: MainWindowPage {
    let content: Widget
    let title = tr("Call ended – Confab")
    var defaultWidget: Widget? { back }
    private let back = Button(label: tr("Back"))

    init(callViewModel: CallViewModel, ended: EndedCall) {
        back.addCSSClass("suggested-action")
        back.addCSSClass("pill")
        back.align(horizontal: .center)
        back.onClicked { [weak callViewModel] in callViewModel?.dismissEndedCall() }
        let page = StatusPage(iconName: "call-missed-symbolic", title: tr("Call ended"), description: ended.reason, child: back)
        page.expand()
        let header = HeaderBar(title: ended.call.map { CallTitle.title(of: $0, with: []) } ?? tr("Call"))
        header.packEnd(MainMenu.button())
        content = Box(.vertical, children: [header, page])
        content.addShortcut("Escape") { [weak callViewModel] in callViewModel?.dismissEndedCall() }
    }

    func shown(in window: Window) { back.grabFocus() }
    func close() {}
}
