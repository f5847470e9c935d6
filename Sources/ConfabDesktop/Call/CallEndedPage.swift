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
        UIFile.require { try file.statusPage("status") }.setDescription(ended.reason)
        let header = UIFile.require { try file.headerBar("header") }
        header.setTitle(ended.call.map { CallTitle.title(of: $0, with: []) } ?? tr("Call"), subtitle: "")
        header.packEnd(MainMenu.button())
        content.addShortcut("Escape") { [weak callViewModel] in callViewModel?.dismissEndedCall() }
    }

    func shown(in window: Window) { back.grabFocus() }
    func close() {}
}
