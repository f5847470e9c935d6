import ConfabCore
import ConfabMedia
import GLibBridge
import GtkBridge

/// The call in a small window: the person in the spotlight (pinned, else the dominant speaker)
/// with their live video, the call's duration, microphone, hang up, and restore. Restoring
/// shows the full window as it was.
@MainActor
final class MinimizedCallWindow {
    let window: Window
    private let callViewModel: CallViewModel
    private let call: ActiveCall
    private let tile = ParticipantTile(name: "")
    private let durationLabel = Label("", cssClasses: ["dim-label", "numeric"])
    private let microphone: MediaToggle
    private var bindings: [ObservationBinding] = []
    /// This window's watch on the shown participant's camera; it ends when the window closes
    /// or shows someone else (whose camera alone is then received).
    private var frameSubscription: Subscription?
    private var timer: RepeatingTimer?
    private var shownSession: String?
    private weak var media: GStreamerCallMediaEngine?

    init(application: Application, callViewModel: CallViewModel, call: ActiveCall, media: GStreamerCallMediaEngine?) {
        self.callViewModel = callViewModel
        self.call = call
        window = Window(application: application, title: tr("%@ (minimized) – Confab", CallTitle.title(of: call.id, with: call.others.map(\.user))),
                        width: 360, height: 300)
        microphone = MediaToggle(.microphone) { [weak callViewModel] in callViewModel?.toggleMicrophoneEnabled() }
        // Arrows pointing out, back to the big window (view-restore's point in, which reads as
        // "make smaller" on the window that is already small).
        let restore = Button(iconName: "view-fullscreen-symbolic", accessibleLabel: tr("Restore call window"))
        restore.addCSSClass("circular")
        restore.addCSSClass("media-toggle")
        restore.tooltip = tr("Back to the full call window (Ctrl+M)")
        restore.onClicked { [weak callViewModel] in callViewModel?.isMinimized = false }
        let hangUp = Button(iconName: "call-stop-symbolic", accessibleLabel: tr("Hang up"))
        hangUp.addCSSClass("destructive-action")
        hangUp.addCSSClass("circular")
        hangUp.addCSSClass("media-toggle")
        hangUp.tooltip = tr("Hang up (Ctrl+Shift+H)")
        hangUp.onClicked { [weak callViewModel] in Task { await callViewModel?.hangUp() } }
        // Round buttons of one size, not stretched into pills by the row.
        for button in [microphone.button, restore, hangUp] { button.align(vertical: .center) }
        let controls = Box(.horizontal, spacing: 12, children: [microphone.button, restore, hangUp])
        controls.align(horizontal: .center)
        let column = Box(.vertical, spacing: 8, children: [tile.view, durationLabel, controls])
        column.setMargins(8)
        // No title bar: the whole window is its drag handle (buttons still take their clicks).
        window.setContent(WindowHandle(child: column))
        window.onCloseRequest { [weak callViewModel] in
            callViewModel?.isMinimized = false
            return true
        }
        self.media = media
        timer = RepeatingTimer(interval: 1) { [weak self] in self?.updateDuration() }
        bindings = [ObservationBinding { [weak self] in self?.update() }]
    }

    func present() { window.present() }

    func close() {
        frameSubscription = nil
        timer?.cancel()
        bindings.forEach { $0.cancel() }
        window.close()
    }

    private func update() {
        microphone.update(isOn: callViewModel.callSettings.audioOn, refusal: callViewModel.localMedia.microphoneRefusal)
        updateDuration()
        show(call.spotlightParticipant?.sessionID)
        guard let speaker = call.spotlightParticipant else {
            tile.update(name: "Waiting for others…", hasVideo: false, hasAudio: true, isSpeaking: false, quality: .unknown, isSelf: true)
            return
        }
        tile.update(name: speaker.name, hasVideo: speaker.hasVideo, videoInterrupted: speaker.isVideoInterrupted(), hasAudio: speaker.hasAudio,
                    isSpeaking: speaker.isSpeaking,
                    quality: speaker.connectionQuality)
    }

    /// Watches `session`'s camera instead of the one shown before.
    private func show(_ session: String?) {
        guard session != shownSession || (session != nil && frameSubscription == nil) else { return }
        shownSession = session
        frameSubscription = nil
        guard let session, let media else { return }
        frameSubscription = media.watchVideo(of: session, viewport: tile.viewport) { [weak self] frame in self?.tile.show(frame) }
    }

    private func updateDuration() {
        let duration = call.duration().map { formatElapsed(seconds: Int($0)) } ?? tr("Joining…")
        durationLabel.text = duration
        durationLabel.setAccessibleLabel(tr("Call duration %@", "\(duration)"))
    }
}
