import ConfabCore
import GLibBridge

/// Everyone in the call, with the host actions the user's capabilities allow (mute, pin for
/// everyone, block, remove) and the blocked users with Unblock.
@MainActor
final class ParticipantsPanel {
    let window: Window
    private let callViewModel: CallViewModel
    private let list = Box(.vertical, spacing: 12)
    private var binding: ObservationBinding?
    private var shownRows: [String] = []

    init(application: Application, callViewModel: CallViewModel) {
        self.callViewModel = callViewModel
        window = Window(application: application, title: "Participants – Confab", width: 420, height: 520)
        list.setMargins(18)
        let scroller = ScrolledWindow(child: list)
        scroller.expand()
        window.setContent(Box(.vertical, children: [HeaderBar(title: "Participants"), scroller]))
        window.addShortcut("Escape") { [weak window] in window?.close() }
        binding = ObservationBinding { [weak self] in self?.update() }
    }

    func present() { window.present() }

    private func update() {
        let vm = callViewModel
        let participants = vm.callParticipants.values.filter { $0.user.id != vm.currentUser.id }.sorted { $0.joinedAt < $1.joinedAt }
        let blocked = vm.blockedUsers
        // Rebuild only when what is listed (or allowed) changes; not on every speaking update.
        let signature = participants.map { "\($0.sessionID):\($0.isPinned):\($0.hasAudio)" } + blocked.map(\.id)
            + vm.ownCapabilities.sorted()
        guard signature != shownRows else { return }
        shownRows = signature
        list.removeAll()

        let people = PreferencesGroup(title: "In the call (\(participants.count + 1))")
        people.add(row(name: "\(vm.currentUser.name) (you)", avatarName: vm.currentUser.name,
                       detail: vm.callSettings.audioOn ? nil : "microphone off", actions: []))
        for participant in participants {
            people.add(row(name: participant.name, detail: describe(participant), actions: actions(for: participant)))
        }
        list.append(people)

        if !blocked.isEmpty {
            let group = PreferencesGroup(title: "Blocked")
            for user in blocked {
                var actions: [(String, @MainActor () -> Void)] = []
                if vm.canModerate("blockUsers") {
                    actions.append(("Unblock", { [weak vm] in unblockLater(vm, user) }))
                }
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

    private func actions(for participant: CallParticipant) -> [(String, @MainActor () -> Void)] {
        let vm = callViewModel
        var actions: [(String, @MainActor () -> Void)] = []
        if vm.canModerate("muteUsers"), participant.hasAudio {
            actions.append(("Mute", { [weak vm] in Task { await vm?.mute(participant) } }))
        }
        if vm.canModerate("pinForEveryone") {
            actions.append((participant.isPinned ? "Unpin for everyone" : "Pin for everyone", { [weak vm] in Task { await vm?.togglePinForEveryone(participant) } }))
        }
        if vm.canModerate("blockUsers") {
            actions.append(("Block", { [weak vm] in Task { await vm?.block(participant) } }))
        }
        if vm.canModerate("kickUser") {
            actions.append(("Remove", { [weak vm] in Task { await vm?.kick(participant) } }))
        }
        return actions
    }

    private func row(name: String, avatarName: String? = nil, detail: String?, actions: [(String, @MainActor () -> Void)]) -> Box {
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
        for (title, action) in actions {
            let button = Button(label: title)
            button.setAccessibleLabel("\(title) \(name)")
            if title == "Remove" || title == "Block" { button.addCSSClass("destructive-action") }
            button.onClicked(action)
            row.append(button)
        }
        row.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        row.setAccessibleLabel([name, detail].compactMap { $0 }.joined(separator: ", "))
        return row
    }
}

@MainActor
private func unblockLater(_ callViewModel: CallViewModel?, _ user: User) {
    Task { await callViewModel?.unblock(user) }
}
