import ConfabCore
import GLibBridge
import GtkBridge

/// The microphone meter: an icon and a bar that moves with the voice.
@MainActor
final class MicrophoneLevelIndicator {
    let view: Box
    private let icon = Image(iconName: "audio-input-microphone-symbolic")
    private let bar = LevelBar()

    init() {
        // Short enough for a phone-sized lobby; it grows into the room its owner gives it.
        bar.setSizeRequest(width: 60, height: -1)
        bar.expand(horizontally: true, vertically: false)
        bar.align(vertical: .center)
        bar.setAccessibleLabel(tr("Microphone level"))
        view = Box(.horizontal, spacing: 6, children: [icon, bar])
        view.addCSSClass("mic-level")
    }

    /// - Parameters:
    ///   - level: 0…1 (see MicrophoneChecker.meterLevel).
    ///   - isOn: whether the microphone is on; off shows the crossed-out icon and an empty bar.
    func update(level: Double, isOn: Bool) {
        bar.value = isOn ? level : 0
        icon.setIconName(isOn ? "audio-input-microphone-symbolic" : "microphone-disabled-symbolic")
    }
}
