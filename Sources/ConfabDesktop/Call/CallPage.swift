import ConfabCore
import ConfabMedia
import GLibBridge
import GtkBridge

/// The call: participants in the chosen layout (grid, spotlight, full screen) with our
/// self-view, the duration, a reconnecting notice, the control bar, and the participants in a
/// sidebar. Closing the window minimizes the call; hanging up is explicit.
///
/// Keyboard: hold Space to talk while muted; Escape hides the sidebar; the app-wide shortcuts
/// (`AppShortcut`) act on the call too.
///
/// Built before the call exists — while the lobby shows (`BuiltAhead`) — and bound to it
/// (`bind(to:)`) when the call is joined: its widgets took 40–50 ms to build on an idle machine
/// and up to 0.7 s on a saturated one, all of it between the join and the first frame.
@MainActor
final class CallPage: MainWindowPage {
    let content: Widget
    var title: String { call == nil ? tr("Confab") : tr("%@ – Confab", "\(callTitle)") }
    private let header = HeaderBar(title: "")
    private let callViewModel: CallViewModel
    private let statusLabel = Label("", cssClasses: ["dim-label", "numeric"])
    private let production: CallProductionMenu
    private let waitingLabel = Label(tr("Waiting for others to join…"), cssClasses: ["title-3", "dim-label"])
    private let reconnectingLabel = Label(tr("Connection lost. Reconnecting…"), cssClasses: ["warning"])
    private let mutedHint = Label("", cssClasses: ["warning"])
    /// Shown to the sharer while their screen is shared, with the way to stop.
    private let sharingBanner: Box
    /// Where the permissions banner goes when the page is bound (made then: it lives while its
    /// window shows it, so a page built ahead and dropped must not have made one).
    private let permissionsSlot = Box(.vertical)
    private let area: ParticipantsArea
    private var controls: CallControlBar!
    private let toasts: ToastOverlay
    private var bindings: [ObservationBinding] = []
    private var toastForwarder: ToastForwarder?
    /// Refreshes the duration once a second; the duration itself belongs to the call.
    private var timer: RepeatingTimer?
    /// This page's watches on the video streams; they end when the page closes.
    private var frameSubscriptions: [Subscription] = []
    /// A watch on each participant's camera whose tile is shown: the others' video is not
    /// received (see `GStreamerCallMediaEngine.watchVideo`). They end when the page closes, as
    /// when the call is minimized.
    private var videoWatches: [String: Subscription] = [:]
    /// A watch on our own camera while the layout shows our tile (and the page is shown).
    private var selfViewWatch: Subscription?
    /// Paints and frames shown, printed when CONFAB_STATS=1.
    private var drawingStatistics: DrawingStatistics?
    /// Draws every tile's frames in the paints of the lead's video.
    private let paintPacer: VideoPaintPacer
    private let media: GStreamerCallMediaEngine?
    /// The call shown, once bound; the controls built before it reach it through here.
    private let bound: BoundCall
    private var call: ActiveCall? { bound.call }
    private let sidebar: ParticipantsSidebar
    private let flap: Flap
    private var revealConnection: SignalConnection?
    /// The main window, while the page is shown in it.
    private weak var window: Window?
    /// Push to talk, on the window while the page is shown.
    private var spaceKey: KeyHandler?
    /// Ends push to talk when the window loses the focus (see `bindPushToTalk`).
    private var spaceFocusWatch: SignalConnection?
    /// Told when the title changes (someone joined a call named after its people).
    var onTitleChanged: (@MainActor () -> Void)?

    /// The corner of the others' video our self-view sits in; the user can move it to another.
    var selfViewCorner: TileGridPlan.Corner {
        get { area.selfViewCorner }
        set { area.selfViewCorner = newValue }
    }

    /// Told when the user moves the self-view to another corner.
    var onSelfViewCornerMoved: (@MainActor (TileGridPlan.Corner) -> Void)? {
        get { area.onSelfViewCornerMoved }
        set { area.onSelfViewCornerMoved = newValue }
    }
    /// Kept here: the popover's pickers report choices only while it lives.
    private let devices: CallDevicesPopover?

    /// The page, not yet showing a call: `bind(to:)` comes before it is shown.
    init(callViewModel: CallViewModel, media: GStreamerCallMediaEngine?, devices: CallDevicesPopover? = nil) {
        self.callViewModel = callViewModel
        self.media = media
        production = CallProductionMenu()
        self.devices = devices
        let bound = BoundCall()
        self.bound = bound
        let area = ParticipantsArea(selfName: callViewModel.currentUser.name) { session in bound.call?.toggleLocalPin(sessionID: session) }
        self.area = area
        paintPacer = VideoPaintPacer { [weak area] picture, frame in
            switch picture {
            case .ours: area?.selfTile.show(frame)
            case .participant(let session): area?.tiles[session]?.show(frame)
            }
        }
        drawingStatistics = DrawingStatistics(content: area.view) { [weak area] in
            guard let area else { return DrawingStatistics.Counts() }
            return DrawingStatistics.Counts(frames: area.framesShown, ours: area.selfTile.framesShown, paints: area.paints)
        }
        reconnectingLabel.isVisible = false
        waitingLabel.isVisible = false
        let stopSharing = Button(label: tr("Stop sharing"))
        stopSharing.onClicked { Task { await bound.call?.stopScreensharing() } }
        let sharingLabel = Label(tr("You are sharing your screen"))
        sharingLabel.expand(horizontally: true, vertically: false)
        sharingLabel.align(horizontal: .start)
        sharingBanner = Box(.horizontal, spacing: 12, children: [Image(iconName: "screen-shared-symbolic"), sharingLabel, stopSharing])
        sharingBanner.addCSSClass("sharing-banner")
        sharingBanner.isVisible = false

        let column = Box(.vertical, spacing: 12)
        // Toasts float over the participants only, never over the controls below them.
        toasts = ToastOverlay(child: area.view)
        toasts.expand()
        var hideSidebar: @MainActor () -> Void = {}
        var sidebarChanged: @MainActor () -> Void = {}
        sidebar = ParticipantsSidebar(callViewModel: callViewModel, onClose: { hideSidebar() }, onPageChanged: { sidebarChanged() })
        flap = Flap(content: column, sidebar: sidebar.view)
        flap.expand()
        hideSidebar = { [weak flap] in flap?.isRevealed = false }
        header.packEnd(MainMenu.button())
        content = Box(.vertical, children: [header, permissionsSlot, flap])
        controls = CallControlBar(actions: .init(
            toggleMicrophone: { [weak callViewModel] in callViewModel?.toggleMicrophoneEnabled() },
            toggleCamera: { [weak callViewModel] in callViewModel?.toggleCameraEnabled() },
            chooseLayout: { [weak callViewModel] layout in callViewModel?.update(participantsLayout: layout) },
            showParticipants: { [weak self] in self?.toggleParticipants() },
            minimize: { [weak callViewModel] in callViewModel?.isMinimized = true },
            hangUp: { [weak callViewModel] in Task { await callViewModel?.hangUp() } },
            toggleScreenshare: { bound.call.map(Self.toggleScreenshare) },
            react: { reaction in Task { await bound.call?.react(reaction) } },
            toggleHand: { Task { await bound.call?.toggleOwnHand() } }), extras: .init(devices: devices?.button, more: production.content))
        mutedHint.isVisible = false
        for child in [reconnectingLabel, mutedHint, sharingBanner, waitingLabel, toasts, statusLabel, controls.view] { column.append(child) }
        column.setMargins(12)
        content.addShortcut("Escape") { [weak flap] in flap?.isRevealed = false }
        production.onMessage = { [weak toasts] message in toasts?.showToast(message) }
        sidebarChanged = { [weak self] in self?.noteChatShown() }
    }

    /// Shows `call` from now on: its people, chat and state, its video, its duration. Once,
    /// before the page is shown.
    func bind(to call: ActiveCall) {
        precondition(bound.call == nil, "a call page shows one call")
        bound.call = call
        sidebar.bind(to: call)
        production.bind(to: call)
        PermissionsPrompt.banner(in: .call, toasts: toasts).map(permissionsSlot.append)
        // The devices may have been chosen again in the lobby since the page was built.
        devices?.refresh()
        devices?.startWatching()
        timer = RepeatingTimer(interval: 1) { [weak self] in self?.updateStatus() }
        // Scrolling the spotlight's strip changes whose video is watched, between updates.
        area.onShownSessionsChanged = { [weak self] in self?.watchShownVideo() }
        if let media {
            frameSubscriptions = [
                media.remoteScreenshareFrames.subscribe { [weak self] received in
                    guard let view = self?.area.screenshareView, view.sharingSession == received.sessionID else { return }
                    view.show(received.frame)
                },
            ]
        }
        toastForwarder = ToastForwarder(callViewModel: callViewModel, overlay: toasts, call: call.id)
        bindings = [ObservationBinding { [weak self] in self?.update() }]
        revealConnection = flap.onRevealChanged { [weak self] in self?.noteChatShown() }
    }

    /// The chat counts as read only while its pane is on screen.
    private func noteChatShown() {
        guard let call else { return }
        let shown = flap.isRevealed && sidebar.page == .chat
        if call.isChatShown != shown { call.isChatShown = shown }
        if shown { sidebar.chat.focusEntry() }
    }

    func shown(in window: Window) {
        self.window = window
        bindPushToTalk(in: window)
        update()
    }

    /// Closing the window keeps the call going in the small window; hanging up is explicit.
    func closeRequested() -> Bool {
        callViewModel.isMinimized = true
        return true
    }

    func close() {
        devices?.stopWatching()
        frameSubscriptions = []
        videoWatches = [:]
        selfViewWatch = nil
        timer?.cancel()
        bindings.forEach { $0.cancel() }
        bindings = []
        toastForwarder?.cancel()
        sidebar.close()
        revealConnection?.disconnect()
        revealConnection = nil
        spaceKey?.remove()
        spaceKey = nil
        spaceFocusWatch?.disconnect()
        spaceFocusWatch = nil
    }

    /// Ctrl+P and the People button: show the sidebar, or hide it when it is shown. With
    /// unread messages it opens on the chat, where they are.
    func toggleParticipants() {
        if !flap.isRevealed, let call, call.unreadChatCount > 0 { sidebar.page = .chat }
        flap.isRevealed.toggle()
    }

    /// Whether the participants sidebar is shown.
    var isShowingParticipants: Bool { flap.isRevealed }

    /// The call's name, or who is in it ("Call with Bob").
    private var callTitle: String { call.map { CallTitle.title(of: $0.id, with: $0.others.map(\.user)) } ?? "" }

    /// Share screen / Stop sharing (the control bar's button and Ctrl+Shift+E).
    static func toggleScreenshare(_ call: ActiveCall) {
        Task {
            if call.isCurrentUserScreensharing { await call.stopScreensharing() } else { await call.startScreensharing() }
        }
    }

    /// Holding Space is the call's own key (press and release), on the whole window so it
    /// works wherever the focus is; the others are the app's (`AppShortcut`).
    private func bindPushToTalk(in window: Window) {
        let vm = callViewModel
        // Hold Space to talk while muted; when not muted Space keeps activating buttons. In the
        // chat's box Space is a space: taken for talking, it was lost from the message, and each
        // one opened the microphone for a moment while a muted person typed. The release is
        // always the talk's: a talk held while the focus moved into the box still ends.
        spaceKey = window.onKey("space", pressed: { [weak vm, weak window] in
            guard let vm, let window, !window.focusTakesText,
                  !vm.callSettings.audioOn || vm.localMedia.isPushToTalkActive else { return false }
            vm.localMedia.startPushToTalk()
            return true
        }, released: { [weak vm] in vm?.localMedia.endPushToTalk() })
        // Space held while the focus went to another window is let go there, and this window
        // never hears of it: the microphone stayed open for the rest of the call, the person
        // believing themselves muted. A window that loses the focus ends the talk.
        spaceFocusWatch = window.onPropertyChange("is-active") { [weak vm, weak window] in
            guard let window, !window.isActive else { return }
            vm?.localMedia.endPushToTalk()
        }
    }

    private func update() {
        guard let call else { return }
        let vm = callViewModel
        let others = call.others
        let title = callTitle
        if header.title != title {
            header.setTitle(title, subtitle: "")
            onTitleChanged?()
        }
        reconnectingLabel.isVisible = vm.callingState == .reconnecting || call.isReconnectingMedia || call.isMediaPathDown
        reconnectingLabel.text = vm.callingState == .reconnecting
            ? tr("Connection lost. Reconnecting…") : tr("Audio and video lost. Reconnecting…")
        let speakingWhileMuted = vm.localMedia.speakingWhileMutedHint
        if let speakingWhileMuted, mutedHint.text != speakingWhileMuted { mutedHint.text = speakingWhileMuted }
        mutedHint.isVisible = speakingWhileMuted != nil
        waitingLabel.isVisible = others.isEmpty && vm.callingState == .inCall
        let waitingFor = call.awaitedReturn.map { tr("Waiting for %@ to come back…", $0) } ?? tr("Waiting for others to join…")
        if waitingLabel.text != waitingFor { waitingLabel.text = waitingFor }
        // Our own share is never shown back to us: a placeholder stands in for it.
        let sharedScreen: SharedScreen? = call.isCurrentUserScreensharing ? .ours : call.screensharingParticipant.map { .participant($0) }
        sharingBanner.isVisible = call.isCurrentUserScreensharing
        // While the media connection is made anew our camera goes on (the connection given up
        // keeps it until the next one opens it again): the self-view shows it, as others' tiles
        // keep their last picture, instead of our avatar, which says the camera is off.
        let cameraOn = vm.localMedia.effectiveSettings.videoOn
        area.update(others: call.othersInTileOrder, layout: vm.participantsLayout, spotlight: call.spotlightParticipant?.sessionID,
                    pinnedHere: call.locallyPinned, selfHasVideo: cameraOn && call.isMediaConnected,
                    selfVideoInterrupted: cameraOn && !call.isMediaConnected && call.isReconnectingMedia,
                    selfHasAudio: vm.localMedia.effectiveSettings.audioOn, selfQuality: call.ownConnectionQuality, sharedScreen: sharedScreen,
                    reactions: call.reactions, selfReaction: call.ownReaction, selfHandRaised: call.isOwnHandRaised)
        watchShownVideo()
        production.update(call)
        // The full-screen layout is the window full screen too, not a big tile in a window.
        if let window, (vm.participantsLayout == .fullScreen) != window.isFullscreen { window.toggleFullscreen() }
        controls.update(settings: vm.callSettings, refusals: (vm.localMedia.microphoneRefusal, vm.localMedia.cameraRefusal), layout: vm.participantsLayout, participantCount: others.count + 1,
                        canScreenshare: call.can(.screenshare) && call.isMediaConnected, isScreensharing: call.isCurrentUserScreensharing,
                        hasMore: production.hasContent,
                        conversation: .init(unreadChatCount: call.unreadChatCount, canReact: call.canReact,
                                            canRaiseHand: call.canRaiseHand, isHandRaised: call.isOwnHandRaised))
        updateStatus()
    }

    /// Watches the cameras of the participants whose tiles are shown, and only theirs (ours too).
    private func watchShownVideo() {
        guard let media else { return }
        if !area.showsSelf {
            selfViewWatch = nil
            paintPacer.forget(.ours)
        } else if selfViewWatch == nil {
            selfViewWatch = media.watchSelfView(viewport: area.selfTile.viewport) { [weak self] frame in self?.paintPacer.offer(frame, for: .ours) }
        }
        let shown = area.shownSessions
        for session in videoWatches.keys where !shown.contains(session) {
            videoWatches[session] = nil
            paintPacer.forget(.participant(session: session))
        }
        for session in shown where videoWatches[session] == nil {
            videoWatches[session] = media.watchVideo(of: session, viewport: area.tiles[session]?.viewport) { [weak self] frame in
                self?.paintPacer.offer(frame, for: .participant(session: session))
            }
        }
    }

    private func updateStatus() {
        guard let call else { return }
        let duration = call.duration().map { formatElapsed(seconds: Int($0)) } ?? tr("Joining…")
        // Everyone must know when a call is recorded.
        let live = call.isBroadcasting ? tr("Live · ") : ""
        statusLabel.text = live + (call.isRecording ? tr("● Recording · %@", "\(duration)") : duration)
        statusLabel.setCSSClass("recording", call.isRecording)
        statusLabel.setAccessibleLabel(call.isRecording ? tr("Recording. Call duration %@", "\(duration)") : tr("Call duration %@", "\(duration)"))
    }
}

/// The call a page shows, for the controls built before it: one reference, set once by `bind`.
@MainActor
private final class BoundCall {
    weak var call: ActiveCall?
}
