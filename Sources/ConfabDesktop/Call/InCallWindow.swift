import ConfabCore
import ConfabMedia
import GLibBridge

/// The call: a tile per participant (video or avatar, name, microphone, speaking, connection),
/// our self-view, the duration, mic/camera toggles and Hang up. Layouts come with the
/// call-window issue.
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
    private let grid = Grid(spacing: 8)
    private let selfTile: ParticipantTile
    private var tiles: [String: ParticipantTile] = [:]
    private var tileOrder: [String] = []
    private weak var media: GStreamerCallMediaEngine?

    init(application: Application, callViewModel: CallViewModel, call: CallID, media: GStreamerCallMediaEngine?) {
        self.callViewModel = callViewModel
        self.media = media
        selfTile = ParticipantTile(name: "You")
        window = Window(application: application, title: "\(call.id) – Confab", width: 960, height: 680)
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
        grid.expand()
        let column = Box(.vertical, spacing: 12, children: [reconnectingLabel, participantsLabel, grid, statusLabel, controls])
        column.expand()
        column.setMargins(12)
        window.setContent(Box(.vertical, children: [HeaderBar(title: call.id, subtitle: "\(call.type) call"), column]))
        window.addShortcut("<Control><Shift>h") { [weak callViewModel] in Task { await callViewModel?.hangUp() } }
        window.addShortcut("<Control>d") { [weak callViewModel] in callViewModel?.toggleMicrophoneEnabled() }
        window.addShortcut("<Control>e") { [weak callViewModel] in callViewModel?.toggleCameraEnabled() }
        timer = RepeatingTimer(interval: 1) { [weak self] in
            guard let self else { return }
            self.secondsInCall += 1
            self.updateStatus()
        }
        media?.onRemoteFrame = { [weak self] session, frame in self?.tiles[session]?.show(frame) }
        media?.onLocalFrame = { [weak self] frame in self?.selfTile.show(frame) }
        bindings = [ObservationBinding { [weak self] in self?.update() }]
    }

    func present() { window.present() }

    func close() {
        media?.onRemoteFrame = nil
        media?.onLocalFrame = nil
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
        participantsLabel.text = others.isEmpty ? "Waiting for others to join…" : "In the call: " + others.map(\.name).joined(separator: ", ")
        updateTiles(others, settings: settings)
        updateStatus()
    }

    /// One tile per other participant session, then ours; the grid is rebuilt only when people come or go.
    private func updateTiles(_ others: [CallParticipant], settings: CallSettings) {
        let order = others.map(\.sessionID)
        for participant in others where tiles[participant.sessionID] == nil {
            tiles[participant.sessionID] = ParticipantTile(name: participant.name)
        }
        for gone in tiles.keys where !order.contains(gone) { tiles[gone] = nil }
        if order != tileOrder {
            tileOrder = order
            let views = order.compactMap { tiles[$0]?.view } + [selfTile.view]
            let columns = Int(Double(views.count).squareRoot().rounded(.up))
            grid.setChildren(views, columns: columns)
        }
        for participant in others {
            tiles[participant.sessionID]?.update(name: participant.name, hasVideo: participant.hasVideo, hasAudio: participant.hasAudio,
                                                 isSpeaking: participant.isSpeaking, quality: participant.connectionQuality)
        }
        selfTile.update(name: "You", hasVideo: settings.videoOn && callViewModel.isMediaConnected, hasAudio: settings.audioOn,
                        isSpeaking: false, quality: .unknown, isSelf: true)
    }

    private func updateStatus() {
        statusLabel.text = callViewModel.callingState == .joining ? "Joining…" : formatElapsed(seconds: secondsInCall)
    }
}
