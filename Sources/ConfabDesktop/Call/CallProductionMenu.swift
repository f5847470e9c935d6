import ConfabCore
import GLibBridge
import GtkBridge

/// What the call's More (⋯) menu holds of its own: the call's link (Copy link, and Reset link
/// for hosts) for those who may read the call; record, go live and broadcast (each only with its
/// capability, going live only in calls that have a backstage, with what it means), the
/// viewer link while live and the finished recordings, each as a row with Open and Copy.
@MainActor
final class CallProductionMenu {
    /// Shown in the control bar's More menu, below the controls that did not fit the bar.
    let content = Box(.vertical, spacing: 2)
    /// Whether anything in it is shown (the More button then stays in the bar).
    private(set) var hasContent = false
    /// Told what just happened ("Link copied"), for a toast.
    var onMessage: (@MainActor (String) -> Void)?
    private let linkSection: Box
    private let copyLink = Button(iconName: "edit-copy-symbolic", label: tr("Copy link"))
    private let resetLink = Button(iconName: "view-refresh-symbolic", label: tr("Reset link…"))
    private let record = Button(iconName: "media-record-symbolic", label: tr("Record"))
    private let live = Button(iconName: "media-playback-start-symbolic", label: tr("Go live"))
    private let liveExplanation = Label("", cssClasses: ["caption", "dim-label"])
    private let broadcast = Button(iconName: "network-transmit-symbolic", label: tr("Broadcast"))
    private let links = Box(.vertical, spacing: 6)
    /// What the link rows show now, so they are rebuilt only when it changes.
    private var shownLinks: [String] = []

    /// The call its buttons act on (`bind`); the menu is built before it.
    private weak var call: ActiveCall?

    init() {
        let linkHeading = Label(tr("Call link"), cssClasses: ["heading"])
        linkHeading.align(horizontal: .start)
        linkHeading.setMargins(top: 4, bottom: 0, start: 8, end: 8)
        let linkHint = Label(tr("Whoever has the link can join, members or not."), cssClasses: ["caption", "dim-label"])
        // Narrow enough that the menu fits a 360 px window (the 360x640 UI test measures it).
        linkHint.wrapAtStart(maximumCharacters: 32)
        linkHint.setMargins(top: 0, bottom: 2, start: 8, end: 8)
        linkSection = Box(.vertical, spacing: 2, children: [linkHeading, linkHint, copyLink, resetLink])
        copyLink.tooltip = tr("Copy the call’s link, to invite someone")
        resetLink.tooltip = tr("Give the call a new link: the old one stops working")
        copyLink.onClickedClosingPopover { [weak self] in
            guard let self, let call = self.call, let secret = call.linkSecret else { return }
            self.copyLink.copyToClipboard(CallLink(call: call.id, secret: secret).text)
            self.onMessage?(tr("Link copied. Whoever has it can join this call."))
        }
        resetLink.onClickedClosingPopover { [weak self] in
            guard let self else { return }
            Task {
                // Whoever the old link let in leaves the call: ask first.
                guard await MessageDialog.ask(heading: tr("Reset the call’s link?"),
                                              body: tr("The old link stops working, and people who joined with it and are not members leave the call."),
                                              cancel: tr("Cancel"), confirm: tr("Reset Link"), destructive: true, over: self.content) else { return }
                await self.call?.resetLink()
            }
        }
        record.onClickedClosingPopover { [weak self] in Task { await self?.call?.toggleRecording() } }
        live.onClickedClosingPopover { [weak self] in Task { await self?.call?.toggleLive() } }
        broadcast.onClickedClosingPopover { [weak self] in Task { await self?.call?.toggleBroadcasting() } }
        liveExplanation.wrapAtStart(maximumCharacters: 32)
        liveExplanation.setMargins(top: 0, bottom: 2, start: 8, end: 8)
        for child in [linkSection, record, live, liveExplanation, broadcast, links] as [Widget] { content.append(child) }
    }

    /// Acts on `call` from now on.
    func bind(to call: ActiveCall) { self.call = call }

    func update(_ vm: ActiveCall) {
        let recording = vm.isRecording || vm.recordingState == .requested
        record.setEntry(iconName: recording ? "media-playback-stop-symbolic" : "media-record-symbolic",
                        label: vm.recordingState == .requested ? tr("Starting recording…") : (recording ? tr("Stop recording") : tr("Record")))
        record.isVisible = vm.canRecord
        live.setEntry(iconName: vm.isBackstage ? "media-playback-start-symbolic" : "media-playback-pause-symbolic",
                      label: vm.isBackstage ? tr("Go live") : tr("Back to backstage"))
        live.isVisible = vm.canGoLive && vm.hasBackstage
        liveExplanation.text = vm.isBackstage
            ? tr("Backstage: only hosts can join until you go live.")
            : tr("Live: everyone invited can join. Back to backstage lets only hosts in again.")
        liveExplanation.isVisible = live.isVisible
        broadcast.setEntry(iconName: vm.isBroadcasting ? "media-playback-stop-symbolic" : "network-transmit-symbolic",
                           label: vm.isBroadcasting ? tr("Stop broadcast") : tr("Broadcast"))
        broadcast.isVisible = vm.canBroadcast
        linkSection.isVisible = vm.linkSecret != nil
        resetLink.isVisible = vm.canResetLink
        hasContent = vm.linkSecret != nil || vm.canRecord || vm.canBroadcast || (vm.canGoLive && vm.hasBackstage) || !vm.recordings.isEmpty
            || vm.hlsPlaylistUrl != nil || !vm.recordingErrors.isEmpty
        content.isVisible = hasContent
        updateLinks(vm)
    }

    private func updateLinks(_ vm: ActiveCall) {
        let signature = [vm.hlsPlaylistUrl ?? ""] + vm.recordings.map(\.downloadURL) + vm.recordingErrors
        guard signature != shownLinks else { return }
        shownLinks = signature
        links.removeAll()
        if let viewerLink = vm.hlsPlaylistUrl {
            links.append(Self.linkRow(title: tr("Viewer link"), detail: tr("Anyone with it can watch the broadcast"), url: viewerLink))
        }
        for recording in vm.recordings {
            links.append(Self.linkRow(title: tr("Recording of %@", recording.participant),
                                      detail: formatElapsed(seconds: Int(recording.duration)), url: recording.downloadURL))
        }
        for failure in vm.recordingErrors {
            let line = Label(tr("Recording failed: %@", failure), cssClasses: ["caption", "warning"])
            line.wrap()
            links.append(line)
        }
    }

    /// A link as people handle links: what it is, and Open and Copy (not a raw URL to select).
    private static func linkRow(title: String, detail: String, url: String) -> Widget {
        let name = Label(title, cssClasses: ["heading"])
        name.align(horizontal: .start)
        let info = Label(detail, cssClasses: ["caption", "dim-label"])
        info.align(horizontal: .start)
        let text = Box(.vertical, spacing: 2, children: [name, info])
        text.expand(horizontally: true, vertically: false)
        let open = Button(label: tr("Open"))
        open.setAccessibleLabel(tr("Open %@", title))
        open.tooltip = url
        open.onClickedClosingPopover { [weak open] in open?.openURI(url) }
        let copy = Button(iconName: "edit-copy-symbolic", accessibleLabel: tr("Copy the link of %@", title))
        copy.tooltip = tr("Copy link")
        copy.onClicked { [weak copy] in copy?.copyToClipboard(url) }
        for button in [open, copy] { button.align(vertical: .center) }
        return Box(.horizontal, spacing: 6, children: [text, open, copy])
    }
}
