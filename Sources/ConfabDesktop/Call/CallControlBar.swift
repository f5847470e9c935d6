import ConfabCore
import GLibBridge

/// The in-call controls: microphone, camera, share screen, layout, participants, minimize and hang up.
/// Stateless: `update` shows the settings it is given; actions go to the closures.
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

    let view: Box
    private let microphone: MediaToggle
    private let camera: MediaToggle
    private let layoutButtons: [ParticipantsLayout: ToggleButton]
    private let participantsButton: Button
    private let screenshareButton: Button

    /// - Parameter extras: more controls, placed before Hang up (e.g. the devices popover).
    init(actions: Actions, extras: [Widget] = []) {
        microphone = MediaToggle(.microphone, onToggle: actions.toggleMicrophone)
        camera = MediaToggle(.camera, onToggle: actions.toggleCamera)

        var buttons: [ParticipantsLayout: ToggleButton] = [:]
        let layoutList = Box(.vertical, spacing: 4)
        for layout in ParticipantsLayout.allCases {
            let button = ToggleButton(iconName: layout.iconName, accessibleLabel: layout.title)
            button.label = layout.title
            button.addCSSClass("flat")
            button.onToggled { _ in actions.chooseLayout(layout) }
            buttons[layout] = button
            layoutList.append(button)
        }
        layoutButtons = buttons
        let layoutMenu = MenuButton(iconName: "view-grid-symbolic", accessibleLabel: "Layout (Ctrl+L)", content: layoutList)
        layoutMenu.addCSSClass("circular")

        participantsButton = Button(iconName: "system-users-symbolic", accessibleLabel: "Participants")
        participantsButton.addCSSClass("circular")
        participantsButton.onClicked(actions.showParticipants)

        // Shown only with the `screenshare` capability (see update).
        screenshareButton = Button(iconName: "screen-shared-symbolic", accessibleLabel: "Share screen")
        screenshareButton.addCSSClass("circular")
        screenshareButton.isVisible = false
        screenshareButton.onClicked(actions.toggleScreenshare)

        let minimize = Button(iconName: "window-minimize-symbolic", accessibleLabel: "Minimize call (Ctrl+M)")
        minimize.addCSSClass("circular")
        minimize.onClicked(actions.minimize)

        let hangUp = Button(iconName: "call-stop-symbolic", accessibleLabel: "Hang up")
        hangUp.tooltip = "Hang up (Ctrl+Shift+H)"
        hangUp.addCSSClass("destructive-action")
        hangUp.addCSSClass("circular")
        hangUp.addCSSClass("call-button")
        hangUp.onClicked(actions.hangUp)

        view = Box(.horizontal, spacing: 18, children: [microphone.button, camera.button, screenshareButton] + extras + [layoutMenu, participantsButton, minimize, hangUp])
        view.align(horizontal: .center)
        view.addCSSClass("call-controls")
    }

    func update(settings: CallSettings, layout: ParticipantsLayout, participantCount: Int,
                canScreenshare: Bool = false, isScreensharing: Bool = false) {
        screenshareButton.isVisible = canScreenshare || isScreensharing
        screenshareButton.setAccessibleLabel(isScreensharing ? "Stop sharing screen" : "Share screen")
        screenshareButton.tooltip = isScreensharing ? "Stop sharing your screen" : "Share your screen"
        screenshareButton.setCSSClass("suggested-action", isScreensharing)
        microphone.update(isOn: settings.audioOn)
        camera.update(isOn: settings.videoOn)
        for (candidate, button) in layoutButtons { button.isActive = candidate == layout }
        let people = participantCount == 1 ? "1 person" : "\(participantCount) people"
        participantsButton.setAccessibleLabel("Participants (\(people))")
        participantsButton.tooltip = "Participants: \(people) (Ctrl+P)"
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
