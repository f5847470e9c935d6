import ConfabCore
import GLibBridge

/// Everyone in the call, with the host actions the user's capabilities allow (mute, pin for
/// everyone, block, remove) and the blocked users with Unblock. Belongs to the call window that
/// opened it: it closes with that window, and a closed panel is never shown again (the next
/// Ctrl+P makes a new one).
@MainActor
final class ParticipantsPanel {
    let window: Window
    private let callViewModel: CallViewModel
    private weak var call: ActiveCall?
    private let list = Box(.vertical, spacing: 12)
    private var binding: ObservationBinding?
    private var shownRows: [String] = []
    /// Called once when the panel's window goes (closed by the user, Escape, or its owner).
    var onClosed: (@MainActor () -> Void)?
    private(set) var isClosed = false

    init(application: Application, callViewModel: CallViewModel, call: ActiveCall) {
        self.callViewModel = callViewModel
        self.call = call
        window = Window(application: application, title: "Participants – Confab", width: 420, height: 520)
        list.setMargins(18)
        let scroller = ScrolledWindow(child: list)
        scroller.expand()
        window.setContent(Box(.vertical, children: [HeaderBar(title: "Participants"), scroller]))
        window.addShortcut("Escape") { [weak self] in self?.close() }
        // GTK destroys a window whose close button was pressed: forget it then, so the next
        // Ctrl+P opens a live panel instead of presenting a destroyed one.
        window.onCloseRequest { [weak self] in
            self?.forget()
            return false
        }
        binding = ObservationBinding { [weak self] in self?.update() }
    }

    func present() { window.present() }

    func close() {
        guard !isClosed else { return }
        forget()
        window.close()
    }

    /// Ends the panel's bindings and tells its owner; the window itself goes (or went) with GTK.
    private func forget() {
        guard !isClosed else { return }
        isClosed = true
        binding?.cancel()
        binding = nil
        onClosed?()
        onClosed = nil
    }

    private func update() {
        guard let call else { return }
        let vm = callViewModel
        let participants = call.others
        let blocked = call.blockedUsers
        // Rebuild only when what is listed (or allowed) changes; not on every speaking update.
        let signature = participants.map { "\($0.sessionID):\($0.isPinned):\($0.hasAudio)" } + blocked.map(\.id)
            + call.ownCapabilities.sorted().map(\.rawValue) + ["self-audio:\(vm.callSettings.audioOn)"]
        guard signature != shownRows else { return }
        shownRows = signature
        list.removeAll()

        let people = PreferencesGroup(title: "In the call (\(participants.count + 1))")
        people.add(row(name: "\(vm.currentUser.name) (you)", avatarName: vm.currentUser.name,
                       detail: vm.callSettings.audioOn ? nil : "microphone off", actions: []))
        for participant in participants {
            people.add(row(name: participant.name, detail: describe(participant), actions: actions(for: participant, in: call)))
        }
        list.append(people)

        if !blocked.isEmpty {
            let group = PreferencesGroup(title: "Blocked")
            for user in blocked {
                let actions = call.can(.blockUsers)
                    ? [HostAction(title: "Unblock", isDestructive: false) { [weak call] in Task { await call?.unblock(user) } }] : []
                group.add(row(name: user.name, detail: "blocked from this call", actions: actions))
            }
            list.append(group)
        }
    }

    private func describe(_ participant: CallParticipant) -> String? {
        var parts: [String] = []
        if !participant.hasAudio { parts.append("microphone off") }
        if participant.isPinned { parts.append("pinned for everyone") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// A host action on one row: its title, whether it removes someone, and what it does.
    private struct HostAction {
        let title: String
        let isDestructive: Bool
        let perform: @MainActor () -> Void
    }

    private func actions(for participant: CallParticipant, in call: ActiveCall) -> [HostAction] {
        var actions: [HostAction] = []
        if call.can(.muteUsers), participant.hasAudio {
            actions.append(HostAction(title: "Mute", isDestructive: false) { [weak call] in Task { await call?.mute(participant) } })
        }
        if call.can(.pinForEveryone) {
            actions.append(HostAction(title: participant.isPinned ? "Unpin for everyone" : "Pin for everyone", isDestructive: false) {
                [weak call] in Task { await call?.togglePinForEveryone(participant) }
            })
        }
        if call.can(.blockUsers) {
            actions.append(HostAction(title: "Block", isDestructive: true) { [weak call] in Task { await call?.block(participant) } })
        }
        if call.can(.kickUser) {
            actions.append(HostAction(title: "Remove", isDestructive: true) { [weak call] in Task { await call?.kick(participant) } })
        }
        return actions
    }

    private func row(name: String, avatarName: String? = nil, detail: String?, actions: [HostAction]) -> Box {
        let avatar = Avatar(size: 32, name: avatarName ?? name)
        let nameLabel = Label(name, cssClasses: ["heading"])
        nameLabel.align(horizontal: .start)
        let text = Box(.vertical, spacing: 2, children: [nameLabel])
        if let detail {
            let detailLabel = Label(detail, cssClasses: ["dim-label", "caption"])
            detailLabel.align(horizontal: .start)
            text.append(detailLabel)
        }
        text.expand(horizontally: true, vertically: false)
        let row = Box(.horizontal, spacing: 12, children: [avatar, text])
        for action in actions {
            let button = Button(label: action.title)
            button.setAccessibleLabel("\(action.title) \(name)")
            if action.isDestructive { button.addCSSClass("destructive-action") }
            button.onClicked(action.perform)
            row.append(button)
        }
        row.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        row.setAccessibleLabel([name, detail].compactMap { $0 }.joined(separator: ", "))
        return row
    }
}
