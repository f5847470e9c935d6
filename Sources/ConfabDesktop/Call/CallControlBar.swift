import ConfabCore
import GLibBridge
import GtkBridge

/// The in-call controls, in groups: your media (microphone, camera, devices) | sharing and
/// More | people and layout (participants, layout, minimize) | hang up. It never wraps: with
/// room every control has a caption under it; narrower, the captions go; narrower still (down
/// to a 360 px phone), the least needed controls move into the More (⋯) menu — minimize first,
/// then share, layout and participants — while microphone, camera, devices and hang up always
/// stay. Every tooltip names its shortcut. Stateless: `update` shows the settings it is given;
/// actions go to the closures.
@MainActor
final class CallControlBar {
    struct Actions {
        let toggleMicrophone: @MainActor () -> Void
        let toggleCamera: @MainActor () -> Void
        let chooseLayout: @MainActor (ParticipantsLayout) -> Void
        let showParticipants: @MainActor () -> Void
        let minimize: @MainActor () -> Void
        let hangUp: @MainActor () -> Void
        /// Starts sharing the screen, or stops it while we share.
        var toggleScreenshare: @MainActor () -> Void = {}
        var react: @MainActor (Reaction) -> Void = { _ in }
        var toggleHand: @MainActor () -> Void = {}
    }

    /// Controls that come from elsewhere: the devices popover's button (with the media group)
    /// and what the More menu holds besides the overflow (recording, broadcast, links).
    struct Extras {
        var devices: Widget?
        var more: Widget?
    }

    let view: Widget
    private let row = PriorityRow(spacing: 8, groupSpacing: 16)
    private let microphone: MediaToggle
    private let camera: MediaToggle
    private let layoutButtons: [ParticipantsLayout: ToggleButton]
    private let participantsButton: Button
    /// The People button with the chat's unread count over it.
    private let participantsControl: Overlay
    private let unreadBadge = Label("", cssClasses: ["unread-badge", "numeric"])
    private let reactionsMenu: MenuButton
    private let handButton: ToggleButton
    private let screenshareButton: Button
    private let layoutMenu: MenuButton
    private let minimizeButton: Button
    private let moreButton: MenuButton
    /// The More menu's copies of the controls that can be left out, each shown there only
    /// while its control is left out of the bar.
    private let overflow: [(control: Widget, entry: Widget)]
    private let overflowSection = Box(.vertical, spacing: 2)
    private let overflowLayoutButtons: [ParticipantsLayout: ToggleButton]
    private let overflowParticipants: Button
    private let overflowScreenshare: Button
    private let overflowHand: Button
    private let moreSeparator = Separator()
    /// The More menu has content of its own now (the last `update`).
    private var hasMoreContent = false

    init(actions: Actions, extras: Extras = Extras()) {
        microphone = MediaToggle(.microphone, onToggle: actions.toggleMicrophone)
        camera = MediaToggle(.camera, onToggle: actions.toggleCamera)

        let layoutChoices = Self.layoutChoices(actions.chooseLayout)
        layoutButtons = layoutChoices
        let layoutList = Box(.vertical, spacing: 4, children: ParticipantsLayout.allCases.compactMap { layoutChoices[$0] })
        layoutMenu = MenuButton(iconName: "view-grid-symbolic", accessibleLabel: tr("Layout"), content: layoutList)
        layoutMenu.tooltip = tr("Layout (Ctrl+L)")
        layoutMenu.opensUpward()

        participantsButton = Button(iconName: "system-users-symbolic", accessibleLabel: tr("Participants"))
        participantsButton.onClicked(actions.showParticipants)
        participantsControl = Overlay(child: participantsButton)
        unreadBadge.align(horizontal: .end, vertical: .start)
        unreadBadge.isVisible = false
        participantsControl.addPassThroughOverlay(unreadBadge)

        reactionsMenu = MenuButton(iconName: "emoji-people-symbolic", accessibleLabel: tr("Reactions"),
                                   content: Self.reactionChoices(actions.react))
        reactionsMenu.tooltip = tr("Send a reaction")
        reactionsMenu.opensUpward()
        reactionsMenu.isVisible = false

        handButton = ToggleButton(text: "✋", accessibleLabel: tr("Raise hand"))
        handButton.tooltip = tr("Raise your hand (Ctrl+H)")
        handButton.isVisible = false
        handButton.onToggled { _ in actions.toggleHand() }

        // Shown only with the `screenshare` capability (see update).
        screenshareButton = Button(iconName: "screen-shared-symbolic", accessibleLabel: tr("Share screen"))
        screenshareButton.isVisible = false
        screenshareButton.onClicked(actions.toggleScreenshare)

        // Not the window's own minimize icon: this one keeps the call in a small window.
        minimizeButton = Button(iconName: "focus-windows-symbolic", accessibleLabel: tr("Minimize call"))
        minimizeButton.tooltip = tr("Show the call in a small window (Ctrl+M)")
        minimizeButton.onClicked(actions.minimize)

        let hangUp = Button(iconName: "call-stop-symbolic", accessibleLabel: tr("Hang up"))
        hangUp.tooltip = tr("Hang up (Ctrl+Shift+H)")
        hangUp.addCSSClass("destructive-action")
        hangUp.addCSSClass("call-button")
        hangUp.onClicked(actions.hangUp)

        // The More menu: first what did not fit in the bar, then the call's own extras.
        overflowScreenshare = Button(iconName: "screen-shared-symbolic", label: tr("Share screen"))
        overflowScreenshare.onClickedClosingPopover(actions.toggleScreenshare)
        overflowParticipants = Button(iconName: "system-users-symbolic", label: tr("Participants"))
        overflowParticipants.onClickedClosingPopover(actions.showParticipants)
        // In a narrow bar, reactions and the hand wait in the More menu too.
        let reactHeading = Label(tr("React"), cssClasses: ["heading"])
        reactHeading.align(horizontal: .start)
        reactHeading.setMargins(top: 6, bottom: 2, start: 8, end: 8)
        // Three to a row: the More menu must fit a 360 px window.
        let overflowReactions = Box(.vertical, spacing: 2, children: [reactHeading, Self.reactionChoices(perRow: 3, actions.react)])
        overflowHand = Button(label: tr("Raise hand"))
        overflowHand.addCSSClass("flat")
        overflowHand.onClickedClosingPopover(actions.toggleHand)
        let overflowMinimize = Button(iconName: "focus-windows-symbolic", label: tr("Minimize call"))
        overflowMinimize.onClickedClosingPopover(actions.minimize)
        let overflowLayoutChoices = Self.layoutChoices(actions.chooseLayout)
        overflowLayoutButtons = overflowLayoutChoices
        let layoutHeading = Label(tr("Layout"), cssClasses: ["heading"])
        layoutHeading.align(horizontal: .start)
        layoutHeading.setMargins(top: 6, bottom: 2, start: 8, end: 8)
        let overflowLayout = Box(.vertical, spacing: 2, children: [layoutHeading] + ParticipantsLayout.allCases.compactMap { overflowLayoutChoices[$0] })
        overflow = [(screenshareButton, overflowScreenshare), (participantsControl, overflowParticipants),
                    (handButton, overflowHand), (reactionsMenu, overflowReactions),
                    (layoutMenu, overflowLayout), (minimizeButton, overflowMinimize)]
        for (_, entry) in overflow { overflowSection.append(entry) }
        let moreContent = Box(.vertical, spacing: 6, children: [overflowSection, moreSeparator] + [extras.more].compactMap { $0 })
        moreContent.setMargins(4)
        moreButton = MenuButton(iconName: "view-more-horizontal-symbolic", accessibleLabel: tr("More"), content: moreContent)
        moreButton.tooltip = tr("More options")
        moreButton.opensUpward()

        for control in [microphone.button, camera.button, extras.devices, screenshareButton, reactionsMenu, handButton, moreButton, participantsButton, layoutMenu, minimizeButton, hangUp] {
            control?.addCSSClass("circular")
        }
        row.append(microphone.button, caption: tr("Microphone"), group: 0)
        row.append(camera.button, caption: tr("Camera"), group: 0)
        if let devices = extras.devices { row.append(devices, caption: tr("Devices"), group: 0) }
        // Lower priorities leave a narrow bar first, for the More menu: Minimize, Layout, then
        // the reactions and the hand, then Share; People (with the chat's badge) stays longest.
        row.append(screenshareButton, caption: tr("Share"), group: 1, priority: 5)
        row.append(reactionsMenu, caption: tr("React"), group: 1, priority: 3)
        row.append(handButton, caption: tr("Hand"), group: 1, priority: 4)
        row.appendOverflow(moreButton, caption: tr("More"), group: 1)
        row.append(participantsControl, caption: tr("People"), group: 2, priority: 6)
        row.append(layoutMenu, caption: tr("Layout"), group: 2, priority: 2)
        row.append(minimizeButton, caption: tr("Minimize"), group: 2, priority: 1)
        row.append(hangUp, caption: tr("Hang up"), group: 3)
        row.addCSSClass("call-controls")
        row.expand(horizontally: true, vertically: false)
        view = row

        // Which controls are left out is known only at layout time; the menu shows it as it
        // is when it opens.
        moreButton.onOpen { [weak self] in self?.showLeftOutControls() }
    }

    /// The protocol's fixed set of reactions, one button each, `perRow` to a row; a pick closes
    /// the popover.
    private static func reactionChoices(perRow: Int = Reaction.allCases.count, _ react: @escaping @MainActor (Reaction) -> Void) -> Box {
        let rows = Box(.vertical, spacing: 2)
        var choices = Box(.horizontal, spacing: 2)
        for (index, reaction) in Reaction.allCases.enumerated() {
            if index > 0, index % perRow == 0 {
                rows.append(choices)
                choices = Box(.horizontal, spacing: 2)
            }
            let choice = Button(label: reaction.rawValue)
            choice.addCSSClass("flat")
            choice.addCSSClass("reaction-choice")
            choice.setAccessibleLabel(reaction.spokenName)
            choice.tooltip = reaction.spokenName
            choice.onClickedClosingPopover { react(reaction) }
            choices.append(choice)
        }
        rows.append(choices)
        return rows
    }

    private static func layoutChoices(_ choose: @escaping @MainActor (ParticipantsLayout) -> Void) -> [ParticipantsLayout: ToggleButton] {
        var buttons: [ParticipantsLayout: ToggleButton] = [:]
        for layout in ParticipantsLayout.allCases {
            let button = ToggleButton(iconName: layout.iconName, label: layout.title)
            // A pick closes the popover: the layout shows at once behind it.
            button.onClickedClosingPopover { choose(layout) }
            buttons[layout] = button
        }
        return buttons
    }

    private func showLeftOutControls() {
        var anyLeftOut = false
        for (control, entry) in overflow {
            let leftOut = control.isVisible && row.isLeftOut(control)
            entry.isVisible = leftOut
            anyLeftOut = anyLeftOut || leftOut
        }
        overflowSection.isVisible = anyLeftOut
        moreSeparator.isVisible = anyLeftOut && hasMoreContent
    }

    /// - Parameter hasMore: the More menu has something of its own (recording, broadcast, links).
    /// - Parameter refusals: why the call does not let the microphone or camera be used (nil: it does).
    func update(settings: CallSettings, refusals: (microphone: String?, camera: String?) = (nil, nil), layout: ParticipantsLayout, participantCount: Int,
                canScreenshare: Bool = false, isScreensharing: Bool = false, hasMore: Bool = false,
                conversation: Conversation = Conversation()) {
        reactionsMenu.isVisible = conversation.canReact
        handButton.isVisible = conversation.canRaiseHand
        handButton.isActive = conversation.isHandRaised
        handButton.setAccessibleLabel(conversation.isHandRaised ? tr("Lower hand") : tr("Raise hand"))
        overflowHand.label = conversation.isHandRaised ? tr("Lower hand") : tr("Raise hand")
        handButton.tooltip = conversation.isHandRaised ? tr("Lower your hand (Ctrl+H)") : tr("Raise your hand (Ctrl+H)")
        unreadBadge.isVisible = conversation.unreadChatCount > 0
        unreadBadge.text = conversation.unreadChatCount > 99 ? "99+" : "\(conversation.unreadChatCount)"
        screenshareButton.isVisible = canScreenshare || isScreensharing
        let shareName = isScreensharing ? tr("Stop sharing screen") : tr("Share screen")
        screenshareButton.setAccessibleLabel(shareName)
        screenshareButton.tooltip = isScreensharing ? tr("Stop sharing your screen (Ctrl+Shift+E)") : tr("Share your screen (Ctrl+Shift+E)")
        screenshareButton.setCSSClass("suggested-action", isScreensharing)
        overflowScreenshare.setEntry(iconName: "screen-shared-symbolic", label: shareName)
        hasMoreContent = hasMore
        row.overflowWanted = hasMore
        microphone.update(isOn: settings.audioOn, refusal: refusals.microphone)
        camera.update(isOn: settings.videoOn, refusal: refusals.camera)
        for (candidate, button) in layoutButtons { button.isActive = candidate == layout }
        for (candidate, button) in overflowLayoutButtons { button.isActive = candidate == layout }
        let people = trn("%@ person", "%@ people", participantCount)
        let unread = conversation.unreadChatCount
        let unreadText = unread > 0 ? trn("%@ unread message", "%@ unread messages", unread) : nil
        participantsButton.setAccessibleLabel([tr("Participants (%@)", "\(people)"), unreadText].compactMap { $0 }.joined(separator: ", "))
        participantsButton.tooltip = [tr("Participants: %@ (Ctrl+P)", "\(people)"), unreadText].compactMap { $0 }.joined(separator: " · ")
    }

    /// What the bar shows of talking beside the video: the chat's unread count and the
    /// reaction and hand controls the user's capabilities allow.
    struct Conversation {
        var unreadChatCount = 0
        var canReact = false
        var canRaiseHand = false
        var isHandRaised = false
    }
}

extension ParticipantsLayout {
    var iconName: String {
        switch self {
        case .grid: "view-grid-symbolic"
        case .spotlight: "view-dual-symbolic"
        case .fullScreen: "view-fullscreen-symbolic"
        }
    }
}

extension Reaction {
    /// What a screen reader says for the emoji.
    var spokenName: String {
        switch self {
        case .thumbsUp: tr("Thumbs up")
        case .heart: tr("Heart")
        case .laugh: tr("Laughing")
        case .party: tr("Celebration")
        case .clap: tr("Applause")
        case .surprised: tr("Surprised")
        }
    }
}
