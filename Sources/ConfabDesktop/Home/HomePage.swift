import ConfabCore
import FoundationEssentials
import GLibBridge
import GtkBridge

/// The idle page: ring people, or open the lobby of a call by its name or by its link. The
/// layout is Resources/ui/home-page.ui; this binds it.
@MainActor
final class HomePage: MainWindowPage {
    let content: Widget
    let title = "Confab"
    private let callName: Entry
    private let people: Entry
    /// What is wrong with what was typed in each field, shown under it until it is edited.
    private let callNameProblem: Label
    private let peopleProblem: Label
    private let toasts: ToastOverlay
    private weak var callViewModel: CallViewModel?
    private var toastForwarder: ToastForwarder?
    private let status: StatusPage
    private var binding: ObservationBinding?
    /// Opens a pasted `confab://join/…` link (its secret lets us into a call we are not a
    /// member of); the app owns the coordinator the secret is given to.
    private let openLink: @MainActor (CallLink) -> Void

    init(callViewModel: CallViewModel, openLink: @escaping @MainActor (CallLink) -> Void) {
        self.callViewModel = callViewModel
        self.openLink = openLink
        let file = UIFile.load("home-page.ui")
        content = UIFile.require { try file.widget("content") }
        callName = UIFile.require { try file.entry("call-name") }
        people = UIFile.require { try file.entry("people") }
        callNameProblem = UIFile.require { try file.label("call-name-problem") }
        peopleProblem = UIFile.require { try file.label("people-problem") }
        status = UIFile.require { try file.statusPage("status") }
        toasts = UIFile.require { try file.toastOverlay("toasts") }
        let ringButton = UIFile.require { try file.button("ring") }
        let openButton = UIFile.require { try file.button("open-lobby") }
        UIFile.require { try file.headerBar("header") }.packEnd(MainMenu.button())

        openButton.onClicked { [weak self] in self?.openLobby() }
        callName.onActivate { [weak self] in self?.openLobby() }
        ringButton.onClicked { [weak self] in self?.ring() }
        people.onActivate { [weak self] in self?.ring() }
        callName.onSignal("changed") { [weak self] in self?.clearProblem(of: self?.callName, shownIn: self?.callNameProblem) }
        people.onSignal("changed") { [weak self] in self?.clearProblem(of: self?.people, shownIn: self?.peopleProblem) }
        // The reason the last call ended (declined, missed …) shows here, where the user lands.
        // A message from just before this window opened (e.g. "Bob declined") is shown here.
        toastForwarder = ToastForwarder(callViewModel: callViewModel, overlay: toasts, call: nil)
        binding = ObservationBinding { [weak self] in self?.updateStatus() }
    }

    /// Says whether we can be rung: signed in, signing in, or the server out of reach.
    private func updateStatus() {
        guard let callViewModel else { return }
        let name = callViewModel.currentUser.name
        switch callViewModel.serverConnection {
        case .signedIn:
            status.setIconName("camera-web-symbolic")
            status.setDescription(tr("Signed in as %@.", name))
        case .connecting:
            status.setIconName("camera-web-symbolic")
            status.setDescription(tr("Signing in as %@…", name))
        case .unreachable:
            status.setIconName("network-offline-symbolic")
            status.setDescription(tr("Can’t reach the call server, so nobody can ring you yet. Confab keeps trying; if this lasts, check the server address in Preferences."))
        case .notTrusted(let message):
            status.setIconName("security-low-symbolic")
            status.setDescription(message)
        }
    }

    func shown(in window: Window) { people.grabFocus() }

    func close() {
        toastForwarder?.cancel()
        binding?.cancel()
    }

    private func openLobby() {
        let typed = callName.text.trimmingSpaces()
        // A link someone sent: its call, and its secret when it has one.
        if Self.isLink(typed) {
            guard let link = CallLink(typed) else {
                return show(tr("That is not a Confab call link (confab://join/TYPE/NAME?secret=…)"), under: callName, in: callNameProblem)
            }
            return openLink(link)
        }
        guard let call = parseCallName(typed) else { return }
        callViewModel?.enterLobby(call, members: [])
    }

    private func ring() {
        let members = people.text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init).filter { !$0.isEmpty }
        guard !members.isEmpty else { return show(tr("Enter who to call: their user ids, separated by commas"), under: people, in: peopleProblem) }
        // Only yourself: the coordinator would refuse the ring in its own words ("nobody to ring:
        // default:x has no members other than the caller"), on the call-ended page.
        if let me = callViewModel?.currentUser.id, members.allSatisfy({ $0 == me }) {
            return show(tr("That is you. Enter who else to call."), under: people, in: peopleProblem)
        }
        let typed = callName.text.trimmingSpaces()
        if Self.isLink(typed) {
            return show(tr("A link is for Join…; to ring people, name the call here or leave it empty."), under: callName, in: callNameProblem)
        }
        let call = typed.isEmpty ? CallID.unnamed() : parseCallName(typed)
        guard let call else { return }
        Task { await callViewModel?.startCall(call, members: members) }
    }

    /// The typed call name by the server's own rules, or nil after saying what is wrong with it.
    private func parseCallName(_ text: String) -> CallID? {
        if let call = try? CallID.parse(userInput: text) { return call }
        show((CallNameProblem(typed: text) ?? .empty).message, under: callName, in: callNameProblem)
        return nil
    }

    /// A link someone sent (`confab://join/…`) rather than a call's name.
    private static func isLink(_ typed: String) -> Bool { typed.lowercased().hasPrefix("confab:") }

    /// Says what is wrong under the field (a toast cut a long reason off, and went before it
    /// was read), marks the field, and puts the keyboard there to mend it.
    private func show(_ problem: String, under entry: Entry, in label: Label) {
        label.text = problem
        label.isVisible = true
        entry.addCSSClass("error")
        entry.grabFocus()
    }

    private func clearProblem(of entry: Entry?, shownIn label: Label?) {
        guard let entry, let label, label.isVisible else { return }
        label.isVisible = false
        entry.removeCSSClass("error")
    }

}
