import ConfabCore
import GLibBridge

/// The "More" popover of the call: record, go live and broadcast (each only with its
/// capability, going live only in calls that have a backstage, with what it means), the
/// viewer link while live and the finished recordings, each as a row with Open and Copy.
@MainActor
final class CallProductionMenu {
    let button: MenuButton
    private let content = Box(.vertical, spacing: 8)
    private let record = Button(label: tr("Record"))
    private let live = Button(label: tr("Go live"))
    private let liveExplanation = Label("", cssClasses: ["caption", "dim-label"])
    private let broadcast = Button(label: tr("Broadcast"))
    private let links = Box(.vertical, spacing: 6)
    /// What the link rows show now, so they are rebuilt only when it changes.
    private var shownLinks: [String] = []

    init(call: ActiveCall) {
        record.onClickedClosingPopover { [weak call] in Task { await call?.toggleRecording() } }
        live.onClickedClosingPopover { [weak call] in Task { await call?.toggleLive() } }
        broadcast.onClickedClosingPopover { [weak call] in Task { await call?.toggleBroadcasting() } }
        liveExplanation.wrap()
        for child in [record, live, liveExplanation, broadcast, links] as [Widget] { content.append(child) }
        content.setMargins(8)
        content.setSizeRequest(width: 300, height: -1)
        button = MenuButton(iconName: "view-more-symbolic", accessibleLabel: tr("More (record, broadcast)"), content: content)
        button.addCSSClass("circular")
        button.opensUpward()
    }

    func update(_ vm: ActiveCall) {
        let recording = vm.isRecording || vm.recordingState == .requested
        record.label = vm.recordingState == .requested ? tr("Starting recording…") : (recording ? tr("Stop recording") : tr("Record"))
        record.isVisible = vm.canRecord
        live.label = vm.isBackstage ? tr("Go live") : tr("Back to backstage")
        live.isVisible = vm.canGoLive && vm.hasBackstage
        liveExplanation.text = vm.isBackstage
            ? tr("Backstage: only hosts can join until you go live.")
            : tr("Live: everyone invited can join. Back to backstage lets only hosts in again.")
        liveExplanation.isVisible = live.isVisible
        broadcast.label = vm.isBroadcasting ? tr("Stop broadcast") : tr("Broadcast")
        broadcast.isVisible = vm.canBroadcast
        button.isVisible = vm.canRecord || vm.canBroadcast || (vm.canGoLive && vm.hasBackstage) || !vm.recordings.isEmpty
            || vm.hlsPlaylistUrl != nil || !vm.recordingErrors.isEmpty
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
