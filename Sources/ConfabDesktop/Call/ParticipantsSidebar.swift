import ConfabCore
import GLibBridge

/// Everyone in the call, in the call page's sidebar, with the host actions the user's
/// capabilities allow (mute, pin for everyone, block, remove) in a menu per person, and the
/// blocked users with Unblock. Remove and Block ask first, and the toast says what you did.
@MainActor
final class ParticipantsSidebar {
    let view: Widget
    private let callViewModel: CallViewModel
    private weak var call: ActiveCall?
    private let list = Box(.vertical, spacing: 12)
    private var binding: ObservationBinding?
    private var shownRows: [String] = []

    init(callViewModel: CallViewModel, call: ActiveCall, onClose: @escaping @MainActor () -> Void) {
        self.callViewModel = callViewModel
        self.call = call
        list.setMargins(12)
        let scroller = ScrolledWindow(child: list)
        // Tall, not wide: a sidebar that asked for the spare width took half the window.
        scroller.expand(horizontally: false, vertically: true)
        let header = HeaderBar(title: tr("Participants"))
        header.showWindowButtons(false)
        let close = Button(iconName: "window-close-symbolic", accessibleLabel: tr("Hide participants"))
        close.tooltip = tr("Hide participants (Ctrl+P)")
        close.addCSSClass("flat")
        close.onClicked(onClose)
        header.packEnd(close)
        let column = Box(.vertical, children: [header, scroller])
        column.addCSSClass("background")
        column.setSizeRequest(width: 300, height: -1)
        column.setAccessibleLabel(tr("Participants"))
        view = column
        binding = ObservationBinding { [weak self] in self?.update() }
    }

    /// Ends the list's binding (the call page closes).
    func close() {
        binding?.cancel()
        binding = nil
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

        let people = PreferencesGroup(title: tr("In the call (%@)", "\(participants.count + 1)"))
        people.add(row(name: "\(vm.currentUser.name) (you)", avatarName: vm.currentUser.name,
                       detail: vm.callSettings.audioOn ? nil : tr("microphone off"), actions: []))
        for participant in participants {
            people.add(row(name: participant.name, detail: describe(participant), actions: actions(for: participant, in: call)))
        }
        list.append(people)

        if !blocked.isEmpty {
            let group = PreferencesGroup(title: tr("Blocked"))
            for user in blocked {
                let actions = call.can(.blockUsers)
                    ? [HostAction(title: tr("Unblock"), isDestructive: false) { [weak call] in Task { await call?.unblock(user) } }] : []
                group.add(row(name: user.name, detail: tr("blocked from this call"), actions: actions))
            }
            list.append(group)
        }
    }

    private func describe(_ participant: CallParticipant) -> String? {
        var parts: [String] = []
        if !participant.hasAudio { parts.append(tr("microphone off")) }
        if participant.isPinned { parts.append(tr("pinned for everyone")) }
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
            actions.append(HostAction(title: tr("Mute"), isDestructive: false) { [weak call] in Task { await call?.mute(participant) } })
        }
        if call.can(.pinForEveryone) {
            actions.append(HostAction(title: participant.isPinned ? tr("Unpin for everyone") : tr("Pin for everyone"), isDestructive: false) {
                [weak call] in Task { await call?.togglePinForEveryone(participant) }
            })
        }
        let name = participant.name
        if call.can(.blockUsers) {
            actions.append(HostAction(title: tr("Block"), isDestructive: true) { [weak self, weak call] in
                self?.confirm(heading: tr("Block %@?", "\(name)"), body: tr("%@ leaves the call and can’t join it again until unblocked.", "\(name)"),
                              action: tr("Block")) { await call?.block(participant) }
            })
        }
        if call.can(.kickUser) {
            actions.append(HostAction(title: tr("Remove"), isDestructive: true) { [weak self, weak call] in
                self?.confirm(heading: tr("Remove %@ from the call?", "\(name)"), body: tr("%@ can join again with the call’s link.", "\(name)"),
                              action: tr("Remove")) { await call?.kick(participant) }
            })
        }
        return actions
    }

    /// Asks before what can't be undone from here, then does it (the call announces it as
    /// "You removed dave" when they have gone).
    private func confirm(heading: String, body: String, action: String, perform: @escaping @MainActor () async -> Void) {
        Task { [weak self] in
            guard let self, await MessageDialog.ask(heading: heading, body: body, cancel: tr("Cancel"), confirm: action,
                                                    destructive: true, over: self.view) else { return }
            await perform()
        }
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
        // A name alone sits level with the avatar, not at its top.
        text.align(vertical: .center)
        let row = Box(.horizontal, spacing: 12, children: [avatar, text])
        if !actions.isEmpty { row.append(menu(for: name, actions: actions)) }
        row.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        row.setAccessibleLabel([name, detail].compactMap { $0 }.joined(separator: ", "))
        return row
    }

    /// The ⋮ menu of one person: the host actions, the ones that remove someone in red.
    private func menu(for name: String, actions: [HostAction]) -> Widget {
        let items = Box(.vertical, spacing: 2)
        let button = MenuButton(iconName: "view-more-symbolic", accessibleLabel: tr("Actions for %@", "\(name)"), content: items)
        for action in actions {
            let item = Button(label: action.title)
            item.addCSSClass("flat")
            item.setAccessibleLabel("\(action.title) \(name)")
            if action.isDestructive { item.addCSSClass("error") }
            item.onClickedClosingPopover(action.perform)
            items.append(item)
        }
        button.addCSSClass("flat")
        button.align(vertical: .center)
        return button
    }
}
