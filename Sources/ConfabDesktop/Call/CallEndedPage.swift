import ConfabCore
import GLibBridge
import GtkBridge

/// After a call ends for a reason other than our own hang-up: what happened, and a way back.
/// The layout is Resources/ui/call-ended-page.ui; this binds it.
@MainActor
final class CallEndedPage: MainWindowPage {
    let content: Widget
    let title = tr("Call ended – Confab")
    var defaultWidget: Widget? { back }
    private let back: Button

    init(callViewModel: CallViewModel, ended: EndedCall) {
        let file = UIFile.load("call-ended-page.ui")
        content = UIFile.require { try file.widget("content") }
        back = UIFile.require { try file.button("back") }
        back.onClicked { [weak callViewModel] in callViewModel?.dismissEndedCall() }
        // Without a missed ring, Back is the page's one answer and looks it.
        if let missed = ended.missed {
            let callBack = UIFile.require { try file.button("call-back") }
            callBack.isVisible = true
            callBack.onClicked { [weak callViewModel] in callViewModel?.callBack(missed) }
        } else {
            back.addCSSClass("suggested-action")
        }
        UIFile.require { try file.statusPage("status") }.setDescription(ended.reason)
        let header = UIFile.require { try file.headerBar("header") }
        // A missed ring never became a call here: named after the ring's call and caller.
        let title = ended.call.map { CallTitle.title(of: $0, with: []) }
            ?? ended.missed.map { CallTitle.title(of: $0.ring.cid, with: [$0.ring.caller]) } ?? tr("Call")
        header.setTitle(title, subtitle: "")
        header.packEnd(MainMenu.button())
        content.addShortcut("Escape") { [weak callViewModel] in callViewModel?.dismissEndedCall() }
    }

    func shown(in window: Window) { back.grabFocus() }
    func close() {}
}
