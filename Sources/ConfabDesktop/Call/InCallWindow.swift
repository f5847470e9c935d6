import ConfabCore
import ConfabMedia
import GLibBridge

/// The call: participants in the chosen layout (grid, spotlight, full screen) with our
/// self-view, the duration, a reconnecting notice, and the control bar. Closing the window
/// minimizes the call; hanging up is explicit.
///
/// Keyboard: Ctrl+D microphone, Ctrl+E camera, hold Space to talk while muted, Ctrl+Shift+H
/// hang up, Ctrl+L next layout, Ctrl+P participants, Ctrl+M minimize, F11 full screen,
/// Ctrl+? the Shortcuts window.
@MainActor
final class InCallWindow {
    let window: Window
    private let callViewModel: CallViewModel
    private let statusLabel = Label("", cssClasses: ["dim-label", "numeric"])
    private let production: CallProductionMenu
    private let waitingLabel = Label("Waiting for others to join…", cssClasses: ["title-3", "dim-label"])
    private let reconnectingLabel = Label("Connection lost. Reconnecting…", cssClasses: ["warning"])
    private let mutedHint = Label("You are muted. Unmute to speak (Ctrl+D, or hold Space).", cssClasses: ["warning"])
    /// Shown to the sharer while their screen is shared, with the way to stop.
    private let sharingBanner: Box
    private let area: ParticipantsArea
    private var controls: CallControlBar!
    private let toasts: ToastOverlay
    private var bindings: [ObservationBinding] = []
    private var timer: RepeatingTimer?
    private var secondsInCall = 0
    private var lastToastID: Int?
    private weak var media: GStreamerCallMediaEngine?
    private let showParticipants: @MainActor () -> Void
    /// Kept here: the popover's pickers report choices only while it lives.
    private let devices: CallDevicesPopover?

    init(application: Application, callViewModel: CallViewModel, call: CallID, media: GStreamerCallMediaEngine?,
         devices: CallDevicesPopover? = nil,
         showParticipants: @escaping @MainActor () -> Void) {
        self.callViewModel = callViewModel
        production = CallProductionMenu(callViewModel: callViewModel)
        self.media = media
        self.showParticipants = showParticipants
        self.devices = devices
        lastToastID = callViewModel.toast?.id
        window = Window(application: application, title: "\(call.id) – Confab", width: 960, height: 700)
        area = ParticipantsArea { [weak callViewModel] session in callViewModel?.toggleLocalPin(sessionID: session) }
        reconnectingLabel.isVisible = false
        waitingLabel.isVisible = false
        let stopSharing = Button(label: "Stop sharing")
        stopSharing.onClicked { [weak callViewModel] in Task { await callViewModel?.stopScreensharing() } }
        let sharingLabel = Label("You are sharing your screen")
        sharingLabel.expand(horizontally: true, vertically: false)
        sharingLabel.align(horizontal: .start)
        sharingBanner = Box(.horizontal, spacing: 12, children: [Image(iconName: "screen-shared-symbolic"), sharingLabel, stopSharing])
        sharingBanner.addCSSClass("sharing-banner")
        sharingBanner.isVisible = false

        let column = Box(.vertical, spacing: 12)
        toasts = ToastOverlay(child: column)
        toasts.expand()
        window.setContent(Box(.vertical, children: [HeaderBar(title: call.id, subtitle: "\(call.type) call"), PermissionsPrompt.banner(in: .call, toasts: toasts), toasts].compactMap { $0 }))
        controls = CallControlBar(actions: .init(
            toggleMicrophone: { [weak callViewModel] in callViewModel?.toggleMicrophoneEnabled() },
            toggleCamera: { [weak callViewModel] in callViewModel?.toggleCameraEnabled() },
            chooseLayout: { [weak callViewModel] layout in callViewModel?.update(participantsLayout: layout) },
            showParticipants: showParticipants,
            minimize: { [weak callViewModel] in callViewModel?.isMinimized = true },
            hangUp: { [weak callViewModel] in Task { await callViewModel?.hangUp() } },
            toggleScreenshare: { [weak callViewModel] in callViewModel.map(Self.toggleScreenshare) }), extras: (devices.map { [$0.button] } ?? []) + [production.button])
        mutedHint.isVisible = false
        for child in [reconnectingLabel, mutedHint, sharingBanner, waitingLabel, area.view, statusLabel, controls.view] { column.append(child) }
        column.setMargins(12)
        bindShortcuts()
        // Closing the window keeps the call going in the small window; hanging up is explicit.
        window.onCloseRequest { [weak callViewModel] in
            callViewModel?.isMinimized = true
            return true
        }
        timer = RepeatingTimer(interval: 1) { [weak self] in
            guard let self else { return }
            self.secondsInCall += 1
            self.updateStatus()
        }
        media?.onRemoteFrame = { [weak self] session, frame in self?.area.tiles[session]?.show(frame) }
        media?.onLocalFrame = { [weak self] frame in self?.area.selfTile.show(frame) }
        media?.onRemoteScreenshareFrame = { [weak self] session, frame in
            guard let view = self?.area.screenshareView, view.sharingSession == session else { return }
            view.show(frame)
        }
        bindings = [
            ObservationBinding { [weak self] in self?.update() },
            ObservationBinding { [weak self] in self?.updateToast() },
        ]
    }

    func present() { window.present() }

    /// Told the window's size when it closes (remembered for the next call).
    var onClose: (@MainActor (_ width: Int, _ height: Int) -> Void)?

    func close() {
        let size = window.defaultSize
        onClose?(size.width, size.height)
        media?.onRemoteFrame = nil
        media?.onLocalFrame = nil
        media?.onRemoteScreenshareFrame = nil
        timer?.cancel()
        bindings.forEach { $0.cancel() }
        window.close()
    }

    /// Share screen / Stop sharing (the control bar's button and Ctrl+Shift+E).
    private static func toggleScreenshare(_ vm: CallViewModel) {
        Task {
            if vm.isCurrentUserScreensharing { await vm.stopScreensharing() } else { await vm.startScreensharing() }
        }
    }

    private func bindShortcuts() {
        let vm = callViewModel
        window.addShortcut("<Control><Shift>h") { [weak vm] in Task { await vm?.hangUp() } }
        window.addShortcut("<Control>d") { [weak vm] in vm?.toggleMicrophoneEnabled() }
        window.addShortcut("<Control>e") { [weak vm] in vm?.toggleCameraEnabled() }
        window.addShortcut("<Control><Shift>e") { [weak vm] in vm.map(Self.toggleScreenshare) }
        window.addShortcut("<Control>l") { [weak vm] in
            guard let vm else { return }
            let all = ParticipantsLayout.allCases
            let next = all[((all.firstIndex(of: vm.participantsLayout) ?? 0) + 1) % all.count]
            vm.update(participantsLayout: next)
        }
        window.addShortcut("<Control>p", showParticipants)
        window.addShortcut("<Control>m") { [weak vm] in vm?.isMinimized = true }
        window.addShortcut("F11") { [weak window] in window?.toggleFullscreen() }
        window.addShortcut("<Control>question") { [weak window] in ShortcutsHelp.present(over: window) }
        // Hold Space to talk while muted; when not muted Space keeps activating buttons.
        window.onKey("space", pressed: { [weak vm] in
            guard let vm, !vm.callSettings.audioOn || vm.isPushToTalkActive else { return false }
            vm.startPushToTalk()
            return true
        }, released: { [weak vm] in vm?.endPushToTalk() })
    }

    private func update() {
        let vm = callViewModel
        let others = vm.callParticipants.values
            .filter { $0.user.id != vm.currentUser.id }
            .sorted { $0.joinedAt < $1.joinedAt }
        reconnectingLabel.isVisible = vm.callingState == .reconnecting || vm.isReconnectingMedia
        reconnectingLabel.text = vm.callingState == .reconnecting
            ? "Connection lost. Reconnecting…" : "Audio and video lost. Reconnecting…"
        mutedHint.isVisible = vm.isSpeakingWhileMuted
        waitingLabel.isVisible = others.isEmpty && vm.callingState == .inCall
        // Our own share is never shown back to us: a placeholder stands in for it.
        let sharedScreen: SharedScreen? = vm.isCurrentUserScreensharing ? .ours : vm.screensharingParticipant.map { .participant($0) }
        sharingBanner.isVisible = vm.isCurrentUserScreensharing
        area.update(others: others, layout: vm.participantsLayout, spotlight: vm.spotlightParticipant?.sessionID,
                    pinnedHere: vm.locallyPinned, selfHasVideo: vm.callSettings.videoOn && vm.isMediaConnected,
                    selfHasAudio: vm.callSettings.audioOn, sharedScreen: sharedScreen)
        production.update(vm)
        controls.update(settings: vm.callSettings, layout: vm.participantsLayout, participantCount: others.count + 1,
                        canScreenshare: vm.canScreenshare && vm.isMediaConnected, isScreensharing: vm.isCurrentUserScreensharing)
        updateStatus()
    }

    private func updateStatus() {
        let duration = callViewModel.callingState == .joining ? "Joining…" : formatElapsed(seconds: secondsInCall)
        // Everyone must know when a call is recorded.
        let live = callViewModel.isBroadcasting ? "Live · " : ""
        statusLabel.text = live + (callViewModel.isRecording ? "● Recording · \(duration)" : duration)
        statusLabel.setCSSClass("recording", callViewModel.isRecording)
        statusLabel.setAccessibleLabel(callViewModel.isRecording ? "Recording. Call duration \(duration)" : "Call duration \(duration)")
    }

    private func updateToast() {
        guard let toast = callViewModel.toast, toast.id != lastToastID else { return }
        lastToastID = toast.id
        toasts.showToast(toast.message)
    }
}
