import ConfabCore
import GLibBridge
import GtkBridge

/// The call page's sidebar, "People | Chat". People: everyone in the call (raised hands first,
/// in raising order), with the host actions the user's capabilities allow (mute, lower hand,
/// pin for everyone, block, remove) in a menu per person, and the blocked users with Unblock.
/// Remove and Block ask first, and the toast says what you did. Chat: `ChatPane`.
@MainActor
final class ParticipantsSidebar {
    /// The sidebar's pages.
    enum Page: String {
        case people, chat
    }

    let view: Widget
    /// Fits a 360 px phone, folded over the video.
    private static let width = 330
    private let callViewModel: CallViewModel
    private weak var call: ActiveCall?
    private let list = Box(.vertical, spacing: 12)
    private let pages = Stack()
    let chat: ChatPane
    private var binding: ObservationBinding?
    private var shownRows: [String] = []
    /// The host's "Ask to join" switch, while the list shows one.
    private var askToJoinSwitch: Switch?

    /// - Parameter onPageChanged: People or Chat was chosen (the chat's unread count depends on it).
    init(callViewModel: CallViewModel, onClose: @escaping @MainActor () -> Void, onPageChanged: @escaping @MainActor () -> Void) {
        self.callViewModel = callViewModel
        chat = ChatPane()
        list.setMargins(12)
        let scroller = ScrolledWindow(child: list)
        // Tall, not wide: a sidebar that asked for the spare width took half the window.
        scroller.expand(horizontally: false, vertically: true)
        pages.addPage(scroller, name: Page.people.rawValue, title: tr("People"))
        pages.addPage(chat.view, name: Page.chat.rawValue, title: tr("Chat"))
        pages.expand(horizontally: false, vertically: true)
        pages.onPageChanged(onPageChanged)
        // A plain bar, not a header bar: an AdwHeaderBar keeps room for a centred title as wide
        // as its widest side, which made the sidebar — so the narrowest call window — 394 px
        // instead of fitting a 360 px phone.
        let switcher = StackSwitcher(stack: pages)
        switcher.expand(horizontally: true, vertically: false)
        let close = Button(iconName: "window-close-symbolic", accessibleLabel: tr("Hide sidebar"))
        close.tooltip = tr("Hide people and chat (Ctrl+P)")
        close.addCSSClass("flat")
        close.onClicked(onClose)
        let header = Box(.horizontal, spacing: 6, children: [switcher, close])
        header.addCSSClass("toolbar")
        header.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        let column = Box(.vertical, children: [header, Separator(), pages])
        column.addCSSClass("background")
        // One width whatever it shows (a long line made it wider, and the video beside it
        // jumped as a hand went up or a page changed): at least this wide, and clamped to it.
        column.setSizeRequest(width: Self.width, height: -1)
        // Said outright, or the tab switcher's horizontal expand spreads up to the column, and
        // a flap whose sidebar and content both expand splits the window in half (630 px of a
        // 1260 px window went to the list); not expanding, it keeps its own width.
        column.expand(horizontally: false, vertically: true)
        column.setAccessibleLabel(tr("People and chat"))
        view = Clamp(maximumWidth: Self.width, child: column)
    }

    /// Lists `call`'s people (and shows its chat) from now on.
    func bind(to call: ActiveCall) {
        self.call = call
        chat.bind(to: call)
        binding = ObservationBinding { [weak self] in self?.update() }
    }

    /// The page shown (People or Chat).
    var page: Page {
        get { pages.visiblePageName.flatMap(Page.init) ?? .people }
        set { pages.visiblePageName = newValue.rawValue }
    }

    /// Ends the sidebar's bindings (the call page closes).
    func close() {
        binding?.cancel()
        binding = nil
        chat.close()
    }

    private func update() {
        guard let call else { return }
        let vm = callViewModel
        // Raised hands first, in the order they went up; then everyone else in join order.
        let raised = call.raisedHands.filter { $0.user.id != vm.currentUser.id }
        let participants = raised + call.others.filter { !$0.isHandRaised }
        let ownHand = call.isOwnHandRaised
        let blocked = call.blockedUsers
        // Rebuild only when what is listed (or allowed) changes; not on every speaking update.
        let knocks = call.canAdmit ? call.knocks : []
        let signature = participants.map { "\($0.sessionID):\($0.isPinned):\($0.hasAudio):\($0.raisedHand?.order ?? 0)" }
            + blocked.map(\.id) + call.ownCapabilities.sorted().map(\.rawValue)
            + ["self-audio:\(vm.callSettings.audioOn)", "self-hand:\(ownHand)", "asks-to-join:\(call.asksToJoin)"]
            + knocks.map { "knock:\($0.userId)" }
        guard signature != shownRows else { return }
        shownRows = signature
        list.removeAll()
        askToJoinSwitch = nil

        // Who waits to be let in comes first: they are waiting on us.
        if !knocks.isEmpty {
            let waiting = PreferencesGroup(title: tr("Waiting to join (%@)", "\(knocks.count)"))
            for knock in knocks { waiting.add(knockRow(knock, in: call)) }
            list.append(waiting)
        }
        if call.canSwitchWaitingRoom {
            let askToJoin = Switch()
            askToJoin.isOn = call.asksToJoin
            askToJoin.onChange { [weak call] on in Task { await call?.setAsksToJoin(on) } }
            // Kept: the switch reports its changes only while its wrapper lives.
            askToJoinSwitch = askToJoin
            // The explanation is a wrapping label of our own under the row: a row's subtitle (and
            // a group's description) does not wrap in libadwaita 1.2 and widened the sidebar — and
            // so the narrowest the call window could be — to the sentence's length.
            let explanation = Label(tr("People who aren’t invited wait until a host lets them in"), cssClasses: ["dim-label", "caption"])
            explanation.wrapAtStart()
            let group = PreferencesGroup(title: "", rows: [ActionRow(title: tr("Ask to join"), control: askToJoin)])
            list.append(group)
            list.append(explanation)
        }

        let people = PreferencesGroup(title: tr("In the call (%@)", "\(participants.count + 1)"))
        let ownDetail = [ownHand ? tr("✋ hand raised") : nil, vm.callSettings.audioOn ? nil : tr("microphone off")].compactMap { $0 }
        people.add(row(name: tr("%@ (you)", vm.currentUser.name), avatarName: vm.currentUser.name,
                       detail: ownDetail.isEmpty ? nil : ownDetail.joined(separator: ", "), actions: []))
        for participant in participants {
            people.add(row(name: participant.name, detail: describe(participant, in: call), actions: actions(for: participant, in: call)))
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

    /// Someone waiting to be let in, with Admit and Deny at hand (no menu: they are waiting).
    private func knockRow(_ knock: CallKnock, in call: ActiveCall) -> Box {
        let name = User(id: knock.userId).name
        let admit = Button(label: tr("Admit"))
        admit.addCSSClass("suggested-action")
        admit.setAccessibleLabel(tr("Admit %@", name))
        admit.onClicked { [weak call] in Task { await call?.admit(knock) } }
        let deny = Button(label: tr("Deny"))
        deny.setAccessibleLabel(tr("Deny %@", name))
        deny.onClicked { [weak call] in Task { await call?.deny(knock) } }
        let buttons = Box(.horizontal, spacing: 6, children: [deny, admit])
        buttons.align(vertical: .center)
        let row = row(name: name, detail: tr("asks to join"), actions: [])
        row.append(buttons)
        return row
    }

    private func describe(_ participant: CallParticipant, in call: ActiveCall) -> String? {
        var parts: [String] = []
        // Who in an audio room only listens (its hosts and those they let speak are heard).
        if call.isListening(participant) { parts.append(tr("listening")) }
        if participant.isHandRaised { parts.append(tr("✋ hand raised")) }
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
        // In an audio room a listener asks with a raised hand; a host lets them speak here.
        if let allowed = call.speakingRight(of: participant) {
            actions.append(HostAction(title: allowed ? tr("Let speak") : tr("Make a listener"), isDestructive: false) { [weak call] in
                Task { await call?.letSpeak(participant, allowed) }
            })
        }
        if call.canLowerOthersHands, participant.isHandRaised {
            actions.append(HostAction(title: tr("Lower hand"), isDestructive: false) { [weak call] in
                Task { await call?.lowerHand(of: participant) }
            })
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
        nameLabel.ellipsizeAtEnd()
        nameLabel.tooltip = name
        let text = Box(.vertical, spacing: 2, children: [nameLabel])
        if let detail {
            let detailLabel = Label(detail, cssClasses: ["dim-label", "caption"])
            // Several details ("listening, ✋ hand raised, microphone off") take two lines
            // rather than widen the list; filling the row's width, wrapped only when they must.
            detailLabel.wrapAtStart()
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
