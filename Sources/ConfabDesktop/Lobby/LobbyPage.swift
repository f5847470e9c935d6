import ConfabCore
import ConfabMedia
import GLibBridge
import GtkBridge

/// The lobby: check camera and microphone, pick devices, see the connection, then join.
///
/// Keyboard: Enter joins, Escape closes (back to idle), Ctrl+D toggles the microphone,
/// Ctrl+E the camera; Tab walks preview toggles → device pickers → Join.
@MainActor
final class LobbyPage: MainWindowPage {
    let content: Widget
    let title: String
    var defaultWidget: Widget? { joinButton }
    private let callViewModel: CallViewModel
    private let lobby: LobbyViewModel
    private let preview: LobbyPreview
    private let microphoneToggle: MediaToggle
    private let cameraToggle: MediaToggle
    private let deviceSelectors: DeviceSelectors
    private let microphoneWarning = Label(tr("Your mic doesn't seem to be working."), cssClasses: ["warning", "caption"])
    private let microphoneStatus = Label("", cssClasses: ["dim-label", "caption"])
    private let connectionWarning = Label(tr("Please check your internet connection."), cssClasses: ["warning", "caption"])
    private let participantsLabel = Label("", cssClasses: ["dim-label"])
    private let joinButton = Button(label: tr("Join call"))
    /// The call asks to join: we knocked and wait for a host (or were turned away).
    private let admissionLabel = Label("", cssClasses: ["title-4"])
    private let admissionSpinner = Spinner()
    private let admissionRow: Box
    /// For those who may read the call: its link, to invite people who are not members.
    private let copyLink = Button(iconName: "edit-copy-symbolic", label: tr("Copy link"))
    private let toasts: ToastOverlay
    private let scrolled: ScrolledWindow
    private let heading = Label(tr("Before Joining"), cssClasses: ["title-2"])
    private let toggles: Box
    private var bindings: [ObservationBinding] = []
    private var previewHasFrame = false
    private var toastForwarder: ToastForwarder?
    private let statistics = PreviewStatistics()
    /// Told once, when the preview shows its first picture (the app then builds the call page
    /// ahead of the join: `BuiltAhead`).
    var onFirstPicture: (@MainActor () -> Void)?
    /// Told when the page closes, whether for the call or back home.
    var onClose: (@MainActor () -> Void)?

    init(callViewModel: CallViewModel, lobby: LobbyViewModel, cameraPreview: CameraPreview) {
        // The camera and the microphone first: they start on threads of their own while the
        // page is built and its window shown (30–80 ms of the main thread), so the first
        // picture is there when the window is. Started once the page was shown, the picture
        // came that much later.
        lobby.start()
        self.callViewModel = callViewModel
        self.lobby = lobby
        let info = lobby.info
        let name = CallTitle.title(of: info.call, with: info.participants.map(\.user).filter { $0.id != callViewModel.currentUser.id })
        title = tr("%@ – Confab", "\(name)")
        preview = LobbyPreview(user: callViewModel.currentUser)
        microphoneToggle = MediaToggle(.microphone) { [weak lobby] in lobby?.toggleMicrophone() }
        cameraToggle = MediaToggle(.camera) { [weak lobby] in lobby?.toggleCamera() }
        deviceSelectors = DeviceSelectors { [weak lobby] device in lobby?.selectDevice(device) }

        // Nothing to check on a camera the call will not show (an audio room): the same rule
        // the toggle and the preview follow (LocalMedia.cameraRefusal).
        let subtitle = callViewModel.localMedia.cameraRefusal == nil ? tr("Check your camera and microphone") : tr("Check your microphone")
        let header = HeaderBar(title: name, subtitle: subtitle)
        let back = Button(iconName: "go-previous-symbolic", accessibleLabel: tr("Back"))
        back.tooltip = tr("Back (Escape)")
        back.onClicked { [weak lobby] in lobby?.close() }
        header.packStart(back)
        header.packEnd(MainMenu.button())
        toggles = Box(.horizontal, spacing: 24, children: [microphoneToggle.button, cameraToggle.button])
        toggles.align(horizontal: .center)
        joinButton.addCSSClass("suggested-action")
        joinButton.addCSSClass("pill")
        joinButton.align(horizontal: .center)
        joinButton.tooltip = tr("Join the call (Enter)")
        participantsLabel.wrap()
        microphoneWarning.wrap()
        connectionWarning.wrap()

        let column = Box(.vertical, spacing: Self.columnSpacing, children: [
            heading, preview.view, microphoneWarning, microphoneStatus, connectionWarning,
            toggles, participantsLabel, copyLink, deviceSelectors.view,
        ])
        column.setMargins(top: Self.columnTopMargin, bottom: 24, start: 24, end: 24)
        scrolled = ScrolledWindow(child: Clamp(maximumWidth: 640, child: column))
        toasts = ToastOverlay(child: scrolled)
        admissionLabel.wrap()
        admissionRow = Box(.horizontal, spacing: 12, children: [admissionSpinner, admissionLabel])
        admissionRow.align(horizontal: .center)
        admissionRow.isVisible = false
        // Join stays at the bottom, outside the scrolling part and below where toasts float.
        let footer = Box(.vertical, spacing: 12, children: [admissionRow, joinButton])
        footer.setMargins(top: 12, bottom: 18, start: 12, end: 12)
        content = Box(.vertical, children: [header, PermissionsPrompt.banner(in: .lobby(lobby), toasts: toasts), toasts, footer].compactMap { $0 })
        toasts.expand()

        cameraPreview.onFrame = { [weak self] frame in self?.show(frame) }
        preview.onPictureSizeChanged { [weak cameraPreview] size in cameraPreview?.setDisplaySize(size) }
        joinButton.onClicked { [weak self] in self?.join() }
        copyLink.align(horizontal: .center)
        copyLink.tooltip = tr("Copy the call’s link: whoever has it can join")
        copyLink.isVisible = false
        copyLink.onClicked { [weak self] in self?.copyCallLink() }
        content.addShortcut("Escape") { [weak lobby] in lobby?.close() }
        content.addShortcut("Return") { [weak self] in self?.join() }
        content.addShortcut("KP_Enter") { [weak self] in self?.join() }
        // The heading and the toggles stay in view with the preview; the device list may scroll.
        // After the layout that told us: a resize queued inside it would leave the column unallocated.
        scrolled.onViewportHeightChange { [weak self] in Task { @MainActor in self?.fitPreview() } }
        bind()
    }

    /// The preview as large as its shape allows, with the heading above it, and the warnings and
    /// toggles below it, still in view; what comes after (the devices) may scroll. Called again
    /// when a warning comes or goes (the content's height changes).
    private func fitPreview() {
        guard let viewport = scrolled.viewportHeight else { return }
        let beside = [heading, microphoneWarning, microphoneStatus, connectionWarning, toggles].filter(\.isVisible)
        preview.maximumHeight = viewport - Self.columnTopMargin - beside.reduce(0) { $0 + $1.naturalHeight + Self.columnSpacing }
    }

    private static let columnTopMargin = 12
    private static let columnSpacing = 18

    func shown(in window: Window) {
        joinButton.grabFocus()
    }

    /// The window's close button leaves the lobby the same way Escape does (back home).
    func closeRequested() -> Bool {
        lobby.close()
        return true
    }

    /// Joined: the call opens the camera and microphone while the lobby still shows (see
    /// `AppRouter.route`); the preview keeps its last picture.
    func releaseDevices() { lobby.stop() }

    /// Stops the lobby's media.
    func close() {
        bindings.forEach { $0.cancel() }
        toastForwarder?.cancel()
        lobby.stop()
        onClose?()
    }

    /// Frames shown so far (the benchmark and tests read it).
    var framesShown: Int { preview.framesShown }

    /// Join, or while a host has not answered our knock, stop waiting (the button says Cancel).
    private func join() {
        guard case .lobby(let info) = callViewModel.callingState else { return }
        switch info.admission {
        case .notAsked:
            JoinTimeline.mark("join-clicked")
            Task { await lobby.join() }
        case .waitingForHost: callViewModel.stopWaitingForHost()
        case .denied: break
        }
    }

    private func copyCallLink() {
        guard let secret = lobby.linkSecret else { return }
        copyLink.copyToClipboard(CallLink(call: lobby.info.call, secret: secret).text)
        toasts.showToast(tr("Link copied. Whoever has it can join this call."))
    }

    private func show(_ frame: VideoFrame) {
        preview.show(frame)
        statistics.frameShown()
        if !previewHasFrame {
            previewHasFrame = true
            updatePreview()
            onFirstPicture?()
        }
    }

    // MARK: Bindings: each widget group follows the state it shows

    private func bind() {
        toastForwarder = ToastForwarder(callViewModel: callViewModel, overlay: toasts, call: CallID(type: lobby.info.callType, id: lobby.info.callId))
        bindings = [
            ObservationBinding { [weak self] in self?.updatePreview() },
            ObservationBinding { [weak self] in self?.updateMicrophone() },
            ObservationBinding { [weak self] in self?.updateControls() },
            ObservationBinding { [weak self] in self?.updateDevices() },
            ObservationBinding { [weak self] in self?.updateConnection() },
        ]
    }

    private func updatePreview() {
        if lobby.cameraState != .running { previewHasFrame = false }
        preview.update(cameraState: lobby.cameraState, hasFrame: previewHasFrame, userName: callViewModel.currentUser.name,
                       refusal: callViewModel.localMedia.cameraRefusal)
    }

    private func updateMicrophone() {
        let isOn = callViewModel.callSettings.audioOn
        preview.micLevel.update(level: lobby.microphoneChecker.meterLevel, isOn: isOn && lobby.microphoneState == .running)
        microphoneWarning.isVisible = lobby.showsMicrophoneWarning
        switch lobby.microphoneState {
        case .noMicrophone:
            microphoneStatus.text = tr("No microphone found. Plug one in and it will show up here.")
            microphoneStatus.isVisible = true
        case .failed(let reason):
            microphoneStatus.text = reason
            microphoneStatus.isVisible = true
        case .off, .running:
            microphoneStatus.isVisible = false
        }
    }

    private func updateControls() {
        let settings = callViewModel.callSettings
        // A call type that lets nobody send something (an audio room's cameras) says so here,
        // before the join, rather than previewing what will not be sent.
        microphoneToggle.update(isOn: settings.audioOn, refusal: callViewModel.localMedia.microphoneRefusal)
        cameraToggle.update(isOn: settings.videoOn, refusal: callViewModel.localMedia.cameraRefusal)
        let state = callViewModel.callingState
        // Joined, the lobby stays a moment while the call's media starts (AppRouter).
        let joining = state == .joining || state == .inCall || state == .reconnecting
        let admission = if case .lobby(let info) = state { info.admission } else { LobbyAdmission.notAsked }
        joinButton.isSensitive = !joining && admission != .denied
        switch admission {
        case .notAsked:
            joinButton.label = joining ? tr("Joining…") : tr("Join call")
            joinButton.tooltip = tr("Join the call (Enter)")
        case .waitingForHost:
            admissionLabel.text = tr("Waiting for the host to let you in…")
            joinButton.label = tr("Cancel")
            joinButton.tooltip = tr("Stop waiting to join")
        case .denied:
            admissionLabel.text = tr("The host didn’t let you in.")
            joinButton.label = tr("Join call")
        }
        // Waiting is not the call's suggested next step: the button only takes the knock back.
        if admission == .waitingForHost { joinButton.removeCSSClass("suggested-action") } else { joinButton.addCSSClass("suggested-action") }
        admissionRow.isVisible = admission != .notAsked
        // Who is in is not ours to know before a host lets us in ("Nobody else is here yet" would be wrong).
        participantsLabel.isVisible = admission == .notAsked
        admissionSpinner.isVisible = admission == .waitingForHost
        participantsLabel.text = Self.describe(lobby.participants)
        copyLink.isVisible = lobby.linkSecret != nil
    }

    private func updateDevices() {
        deviceSelectors.update(kind: .camera, devices: lobby.cameras, selected: lobby.selectedCamera)
        deviceSelectors.update(kind: .microphone, devices: lobby.microphones, selected: lobby.selectedMicrophone)
        deviceSelectors.update(kind: .speaker, devices: lobby.speakers, selected: lobby.selectedSpeaker)
    }

    private func updateConnection() {
        preview.connectionQuality.update(lobby.connectionQuality)
        // A server that doesn't answer is not a slow network: say which, and what to do.
        let unreachable = lobby.isServerUnreachable || callViewModel.serverConnection.isOutOfReach
        if case .notTrusted(let message) = callViewModel.serverConnection {
            connectionWarning.text = message
        } else {
            connectionWarning.text = unreachable
                ? tr("Can’t reach the call server. Check the server address in Preferences; Confab keeps trying.")
                : tr("Your connection is slow: video may stutter. Check your network.")
        }
        connectionWarning.isVisible = unreachable || lobby.showsConnectionWarning
        preview.connectionQuality.view.isVisible = !unreachable
    }


    /// "Bob is in the call." / "Bob and Carol are in the call." / "Bob, Carol and 3 others are in the call."
    static func describe(_ participants: [Member]) -> String {
        let names = participants.map(\.user.name)
        switch names.count {
        case 0: return tr("Nobody else is here yet.")
        case 1: return tr("%@ is in the call.", "\(names[0])")
        case 2: return tr("%@ and %@ are in the call.", "\(names[0])", "\(names[1])")
        default: return trn("%2$@, %3$@ and %1$@ other are in the call.", "%2$@, %3$@ and %1$@ others are in the call.", names.count - 2,
                            names[0], names[1])
        }
    }
}
