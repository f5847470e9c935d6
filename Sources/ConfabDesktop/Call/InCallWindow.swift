import ConfabCore
import GLibBridge

/// The call itself, for now: who is here, the duration, mic/camera toggles and Hang up.
/// Video tiles and layouts come with the media and call-window issues.
@MainActor
final class InCallWindow {
    let window: Window
    private let callViewModel: CallViewModel
    private let participantsLabel = Label("", cssClasses: ["title-3"])
    private let statusLabel = Label("", cssClasses: ["dim-label", "numeric"])
    private let reconnectingLabel = Label("Connection lost. Reconnecting…", cssClasses: ["warning"])
    private let microphoneToggle: MediaToggle
    private let cameraToggle: MediaToggle
    private var bindings: [ObservationBinding] = []
    private var timer: RepeatingTimer?
    private var secondsInCall = 0

    init(application: Application, callViewModel: CallViewModel, call: CallID) {
        self.callViewModel = callViewModel
        window = Window(application: application, title: "\(call.id) – Confab", width: 720, height: 520)
        microphoneToggle = MediaToggle(.microphone) { [weak callViewModel] in callViewModel?.toggleMicrophoneEnabled() }
        cameraToggle = MediaToggle(.camera) { [weak callViewModel] in callViewModel?.toggleCameraEnabled() }
        let hangUp = Button(iconName: "call-stop-symbolic", accessibleLabel: "Hang up")
        hangUp.addCSSClass("destructive-action")
        hangUp.addCSSClass("circular")
        hangUp.addCSSClass("call-button")
        hangUp.tooltip = "Hang up (Ctrl+Shift+H)"
        hangUp.onClicked { [weak callViewModel] in Task { await callViewModel?.hangUp() } }
        participantsLabel.wrap()
        reconnectingLabel.isVisible = false

        let controls = Box(.horizontal, spacing: 24, children: [microphoneToggle.button, cameraToggle.button, hangUp])
        controls.align(horizontal: .center)
        let column = Box(.vertical, spacing: 18, children: [reconnectingLabel, participantsLabel, statusLabel, controls])
        column.align(horizontal: .center, vertical: .center)
        column.expand()
        column.setMargins(24)
        window.setContent(Box(.vertical, children: [HeaderBar(title: call.id, subtitle: "\(call.type) call"), column]))
        window.addShortcut("<Control><Shift>h") { [weak callViewModel] in Task { await callViewModel?.hangUp() } }
        window.addShortcut("<Control>d") { [weak callViewModel] in callViewModel?.toggleMicrophoneEnabled() }
        window.addShortcut("<Control>e") { [weak callViewModel] in callViewModel?.toggleCameraEnabled() }
        timer = RepeatingTimer(interval: 1) { [weak self] in
            guard let self else { return }
            self.secondsInCall += 1
            self.updateStatus()
        }
        bindings = [ObservationBinding { [weak self] in self?.update() }]
    }

    func present() { window.present() }

    func close() {
        timer?.cancel()
        bindings.forEach { $0.cancel() }
        window.close()
    }

    private func update() {
        let settings = callViewModel.callSettings
        microphoneToggle.update(isOn: settings.audioOn)
        cameraToggle.update(isOn: settings.videoOn)
        reconnectingLabel.isVisible = callViewModel.callingState == .reconnecting
        let others = callViewModel.callParticipants.values
            .filter { $0.user.id != callViewModel.currentUser.id }
            .sorted { $0.joinedAt < $1.joinedAt }
            .map(\.user.name)
        participantsLabel.text = others.isEmpty ? "Waiting for others to join…" : "In the call: " + others.joined(separator: ", ")
        updateStatus()
    }

    private func updateStatus() {
        statusLabel.text = callViewModel.callingState == .joining ? "Joining…" : formatElapsed(seconds: secondsInCall)
    }
}
