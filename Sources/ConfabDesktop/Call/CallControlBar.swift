import ConfabCore
import GLibBridge

/// The in-call controls, in groups: your media (microphone, camera, devices) | sharing and
/// more | people and layout (participants, layout, minimize) | hang up. On a narrow window the
/// groups wrap onto a second line instead of being cut off. Every button's tooltip names its
/// shortcut. Stateless: `update` shows the settings it is given; actions go to the closures.
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
    }

    let view: Widget
    private let microphone: MediaToggle
    private let camera: MediaToggle
    private let layoutButtons: [ParticipantsLayout: ToggleButton]
    private let participantsButton: Button
    private let screenshareButton: Button

    /// Controls that come from elsewhere: the devices popover (with the media group) and the
    /// More menu (with sharing).
    struct Extras {
        var devices: [Widget] = []
        var more: [Widget] = []
    }

    init(actions: Actions, extras: Extras = Extras()) {
        microphone = MediaToggle(.microphone, onToggle: actions.toggleMicrophone)
        camera = MediaToggle(.camera, onToggle: actions.toggleCamera)

        var buttons: [ParticipantsLayout: ToggleButton] = [:]
        let layoutList = Box(.vertical, spacing: 4)
        for layout in ParticipantsLayout.allCases {
            let button = ToggleButton(iconName: layout.iconName, accessibleLabel: layout.title)
            button.label = layout.title
            button.addCSSClass("flat")
            // A pick closes the popover: the layout shows at once behind it.
            button.onClickedClosingPopover { actions.chooseLayout(layout) }
            buttons[layout] = button
            layoutList.append(button)
        }
        layoutButtons = buttons
        let layoutMenu = MenuButton(iconName: "view-grid-symbolic", accessibleLabel: tr("Layout"), content: layoutList)
        layoutMenu.tooltip = tr("Layout (Ctrl+L)")
        layoutMenu.addCSSClass("circular")
        layoutMenu.opensUpward()


        participantsButton = Button(iconName: "system-users-symbolic", accessibleLabel: tr("Participants"))
        participantsButton.addCSSClass("circular")
        participantsButton.onClicked(actions.showParticipants)

        // Shown only with the `screenshare` capability (see update).
        screenshareButton = Button(iconName: "screen-shared-symbolic", accessibleLabel: tr("Share screen"))
        screenshareButton.addCSSClass("circular")
        screenshareButton.isVisible = false
        screenshareButton.onClicked(actions.toggleScreenshare)

        // Not the window's own minimize icon: this one keeps the call in a small window.
        let minimize = Button(iconName: "focus-windows-symbolic", accessibleLabel: tr("Minimize call"))
        minimize.tooltip = tr("Show the call in a small window (Ctrl+M)")
        minimize.addCSSClass("circular")
        minimize.onClicked(actions.minimize)

        let hangUp = Button(iconName: "call-stop-symbolic", accessibleLabel: tr("Hang up"))
        hangUp.tooltip = tr("Hang up (Ctrl+Shift+H)")
        hangUp.addCSSClass("destructive-action")
        hangUp.addCSSClass("circular")
        hangUp.addCSSClass("call-button")
        hangUp.onClicked(actions.hangUp)

        func group(_ members: [Widget]) -> Widget { Box(.horizontal, spacing: 8, children: members) }
        let bar = WrappingBox(spacing: 12, children: [
            group([microphone.button, camera.button] + extras.devices),
            group([screenshareButton] + extras.more),
            group([participantsButton, layoutMenu, minimize]),
            hangUp,
        ])
        bar.addCSSClass("call-controls")
        view = bar
    }

    func update(settings: CallSettings, layout: ParticipantsLayout, participantCount: Int,
                canScreenshare: Bool = false, isScreensharing: Bool = false) {
        screenshareButton.isVisible = canScreenshare || isScreensharing
        screenshareButton.setAccessibleLabel(isScreensharing ? tr("Stop sharing screen") : tr("Share screen"))
        screenshareButton.tooltip = isScreensharing ? tr("Stop sharing your screen") : tr("Share your screen")
        screenshareButton.setCSSClass("suggested-action", isScreensharing)
        microphone.update(isOn: settings.audioOn)
        camera.update(isOn: settings.videoOn)
        for (candidate, button) in layoutButtons { button.isActive = candidate == layout }
        let people = trn("%@ person", "%@ people", participantCount)
        participantsButton.setAccessibleLabel(tr("Participants (%@)", "\(people)"))
        participantsButton.tooltip = tr("Participants: %@ (Ctrl+P)", "\(people)")
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
