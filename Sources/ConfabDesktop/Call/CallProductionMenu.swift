import ConfabCore
import GLibBridge

/// The "More" popover of the call: record, go live and broadcast (each only with its
/// capability), the viewer link while live, and the finished recordings with their links.
@MainActor
final class CallProductionMenu {
    let button: MenuButton
    private let content = Box(.vertical, spacing: 8)
    private let record = Button(label: tr("Record"))
    private let live = Button(label: tr("Go live"))
    private let broadcast = Button(label: tr("Broadcast"))
    private let viewerLink = Label("", cssClasses: ["caption"])
    private let recordingsList = Box(.vertical, spacing: 4)

    init(call: ActiveCall) {
        record.onClickedClosingPopover { [weak call] in Task { await call?.toggleRecording() } }
        live.onClickedClosingPopover { [weak call] in Task { await call?.toggleLive() } }
        broadcast.onClickedClosingPopover { [weak call] in Task { await call?.toggleBroadcasting() } }
        viewerLink.wrap()
        viewerLink.makeSelectable()
        for child in [record, live, broadcast, viewerLink, recordingsList] as [Widget] { content.append(child) }
        content.setMargins(8)
        content.setSizeRequest(width: 320, height: -1)
        button = MenuButton(iconName: "view-more-symbolic", accessibleLabel: tr("More (record, broadcast)"), content: content)
        button.addCSSClass("circular")
    }

    func update(_ vm: ActiveCall) {
        let recording = vm.isRecording || vm.recordingState == .requested
        record.label = vm.recordingState == .requested ? tr("Starting recording…") : (recording ? tr("Stop recording") : tr("Record"))
        record.isVisible = vm.canRecord
        live.label = vm.isBackstage ? tr("Go live") : tr("Back to backstage")
        live.isVisible = vm.canGoLive
        broadcast.label = vm.isBroadcasting ? tr("Stop broadcast") : tr("Broadcast")
        broadcast.isVisible = vm.canBroadcast
        viewerLink.text = vm.hlsPlaylistUrl.map { tr("Live — viewers watch at %@", "\($0)") } ?? ""
        viewerLink.isVisible = vm.hlsPlaylistUrl != nil
        button.isVisible = vm.canRecord || vm.canBroadcast || vm.canGoLive || !vm.recordings.isEmpty || vm.hlsPlaylistUrl != nil
        recordingsList.removeAll()
        for recording in vm.recordings {
            let line = Label("\(recording.participant): \(formatElapsed(seconds: Int(recording.duration))) — \(recording.downloadURL)", cssClasses: ["caption"])
            line.wrap()
            line.makeSelectable()
            recordingsList.append(line)
        }
        for failure in vm.recordingErrors {
            let line = Label(tr("Recording failed: %@", "\(failure)"), cssClasses: ["caption", "warning"])
            line.wrap()
            recordingsList.append(line)
        }
    }
}
