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
    private let callName: ExplainedField
    private let people: ExplainedField
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
        callName = UIFile.require { try ExplainedField(file, "call-name") }
        people = UIFile.require { try ExplainedField(file, "people") }
        status = UIFile.require { try file.statusPage("status") }
        toasts = UIFile.require { try file.toastOverlay("toasts") }
        let ringButton = UIFile.require { try file.button("ring") }
        let openButton = UIFile.require { try file.button("open-lobby") }
        UIFile.require { try file.headerBar("header") }.packEnd(MainMenu.button())

        openButton.onClicked { [weak self] in self?.openLobby() }
        callName.entry.onActivate { [weak self] in self?.openLobby() }
        ringButton.onClicked { [weak self] in self?.ring() }
        people.entry.onActivate { [weak self] in self?.ring() }
        callName.entry.onSignal("changed") { [weak self] in
            self?.callName.clearProblem()
            self?.updateRingHint()
        }
        people.entry.onSignal("changed") { [weak self] in self?.people.clearProblem() }
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

    func shown(in window: Window) { people.entry.grabFocus() }

    /// Call rings people into the call named under "Join a call" when one is typed there (a
    /// new call otherwise); the line under the people field says which, so nobody is rung into
    /// a call they did not mean.
    private func updateRingHint() {
        let typed = callName.entry.text.trimmingSpaces()
        if !Self.isLink(typed), (try? CallID.parse(userInput: typed)) != nil {
            people.hint.text = tr("Rings everyone listed into the call “%@”; it starts when someone answers.", typed)
        } else {
            people.hint.text = tr("Rings everyone listed; the call starts when someone answers.")
        }
    }

    func close() {
        toastForwarder?.cancel()
        binding?.cancel()
    }

    private func openLobby() {
        let typed = callName.entry.text.trimmingSpaces()
        // A link someone sent: its call, and its secret when it has one.
        if Self.isLink(typed) {
            guard let link = CallLink(typed) else {
                return callName.show(tr("That is not a Confab call link (confab://join/TYPE/NAME?secret=…)"))
            }
            return openLink(link)
        }
        guard let call = parseCallName(typed) else { return }
        callViewModel?.enterLobby(call, members: [])
    }

    private func ring() {
        let members = people.entry.text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init).filter { !$0.isEmpty }
        guard !members.isEmpty else { return people.show(tr("Enter who to call: their user ids, separated by commas")) }
        // Only yourself: the coordinator would refuse the ring in its own words ("nobody to ring:
        // default:x has no members other than the caller"), on the call-ended page.
        if let me = callViewModel?.currentUser.id, members.allSatisfy({ $0 == me }) {
            return people.show(tr("That is you. Enter who else to call."))
        }
        let typed = callName.entry.text.trimmingSpaces()
        if Self.isLink(typed) {
            return callName.show(tr("A link is for Join…; to ring people, name the call here or leave it empty."))
        }
        let call = typed.isEmpty ? CallID.unnamed() : parseCallName(typed)
        guard let call else { return }
        Task { await callViewModel?.startCall(call, members: members) }
    }

    /// The typed call name by the server's own rules, or nil after saying what is wrong with it.
    private func parseCallName(_ text: String) -> CallID? {
        if let call = try? CallID.parse(userInput: text) { return call }
        callName.show((CallNameProblem(typed: text) ?? .empty).message)
        return nil
    }

    /// A link someone sent (`confab://join/…`) rather than a call's name.
    private static func isLink(_ typed: String) -> Bool { typed.lowercased().hasPrefix("confab:") }

}

/// A home page field with the line under it that says what it does (its hint) and, after a
/// refusal, what is wrong with what was typed (its problem) until it is edited.
@MainActor
private struct ExplainedField {
    let entry: Entry
    let problem: Label
    let hint: Label

    init(_ file: BuilderFile, _ id: String) throws {
        entry = try file.entry(id)
        problem = try file.label("\(id)-problem")
        hint = try file.label("\(id)-hint")
    }

    /// Says what is wrong under the field (a toast cut a long reason off, and went before it
    /// was read), in place of its hint so the page keeps its height and its buttons stay in
    /// view; marks the field, and puts the keyboard there to mend it.
    func show(_ text: String) {
        problem.text = text
        problem.isVisible = true
        hint.isVisible = false
        entry.addCSSClass("error")
        entry.grabFocus()
    }

    func clearProblem() {
        guard problem.isVisible else { return }
        problem.isVisible = false
        hint.isVisible = true
        entry.removeCSSClass("error")
    }
}
