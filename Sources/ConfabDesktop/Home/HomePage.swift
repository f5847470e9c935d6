import ConfabCore
import Foundation
import GLibBridge

/// The idle page: ring people, or open the lobby of a call by its name.
@MainActor
final class HomePage: MainWindowPage {
    let content: Widget
    let title = "Confab"
    private let callName = Entry(placeholder: tr("Call name, e.g. standup"))
    private let people = Entry(placeholder: tr("Who to call, e.g. bob, carol"))
    private let toasts: ToastOverlay
    private weak var callViewModel: CallViewModel?
    private var toastForwarder: ToastForwarder?
    private let status: StatusPage
    private var binding: ObservationBinding?

    init(callViewModel: CallViewModel) {
        self.callViewModel = callViewModel
        callName.setAccessibleLabel(tr("Call name"))
        people.setAccessibleLabel(tr("People to call"))

        let ringButton = Button(label: tr("Call"))
        ringButton.addCSSClass("suggested-action")
        ringButton.addCSSClass("pill")
        ringButton.align(horizontal: .center)
        let ringHint = Label(tr("Rings everyone listed; the call starts when someone answers."), cssClasses: ["dim-label", "caption"])
        ringHint.wrap()

        let openButton = Button(label: tr("Join…"))
        openButton.addCSSClass("pill")
        openButton.align(horizontal: .center)
        let joinHint = Label(tr("First you check your camera and microphone, then you join."), cssClasses: ["dim-label", "caption"])
        joinHint.wrap()

        let form = Box(.vertical, spacing: 12, children: [
            Label(tr("Call someone"), cssClasses: ["heading"]), people, ringHint, ringButton,
            Label(tr("Join a call"), cssClasses: ["heading"]), callName, joinHint, openButton,
        ])
        let page = StatusPage(iconName: "camera-web-symbolic", title: "Confab", description: nil,
                              child: Clamp(maximumWidth: 380, child: form))
        status = page
        toasts = ToastOverlay(child: ScrolledWindow(child: page))
        toasts.expand()
        let header = HeaderBar(title: "Confab")
        header.packEnd(MainMenu.button())
        content = Box(.vertical, children: [header, toasts])

        openButton.onClicked { [weak self] in self?.openLobby() }
        callName.onActivate { [weak self] in self?.openLobby() }
        ringButton.onClicked { [weak self] in self?.ring() }
        people.onActivate { [weak self] in self?.ring() }
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
        }
    }

    func shown(in window: Window) { people.grabFocus() }

    func close() {
        toastForwarder?.cancel()
        binding?.cancel()
    }

    private func openLobby() {
        guard let call = parseCallName(callName.text) else { return }
        callViewModel?.enterLobby(call, members: [])
    }

    private func ring() {
        let members = people.text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init).filter { !$0.isEmpty }
        guard !members.isEmpty else { return toasts.showToast(tr("Enter who to call: their user ids, separated by commas")) }
        let typed = callName.text.trimmingCharacters(in: .whitespaces)
        let call = typed.isEmpty ? CallID(type: .default, id: "call-\(UUID().uuidString.prefix(8).lowercased())") : parseCallName(typed)
        guard let call else { return }
        Task { await callViewModel?.startCall(call, members: members) }
    }

    /// The typed call name by the server's own rules, or nil after saying what is wrong with it.
    private func parseCallName(_ text: String) -> CallID? {
        do {
            return try CallID.parse(userInput: text)
        } catch {
            toasts.showToast(tr("Call names use letters, digits, “.”, “-” and “_”, optionally after a type (default:standup): %@", "\(error.description)"))
            return nil
        }
    }

}
