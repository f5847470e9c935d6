import ConfabCore
import GLibBridge
import GtkBridge

/// A round microphone or camera button: pressed means on. Stateless: it shows `isOn` and
/// reports the user's toggles; the owner decides what they do.
@MainActor
final class MediaToggle {
    enum Kind {
        case microphone, camera

        var accessibleName: String { self == .microphone ? tr("Microphone") : tr("Camera") }
        var shortcut: String { self == .microphone ? "Ctrl+D" : "Ctrl+E" }
        func iconName(isOn: Bool) -> String {
            switch self {
            case .microphone: isOn ? "audio-input-microphone-symbolic" : "microphone-disabled-symbolic"
            case .camera: isOn ? "camera-web-symbolic" : "camera-disabled-symbolic"
            }
        }
    }

    let button: ToggleButton
    private let kind: Kind

    init(_ kind: Kind, onToggle: @escaping @MainActor () -> Void) {
        self.kind = kind
        button = ToggleButton(iconName: kind.iconName(isOn: true), accessibleLabel: kind.accessibleName)
        button.addCSSClass("circular")
        button.addCSSClass("media-toggle")
        button.onToggled { _ in onToggle() }
    }

    /// - Parameter refusal: why the call does not let this device be used (an audio room's
    ///   camera): the toggle shows off, cannot be pressed, and its tooltip says why.
    func update(isOn wanted: Bool, refusal: String? = nil) {
        let isOn = wanted && refusal == nil
        button.isSensitive = refusal == nil
        button.isActive = isOn
        button.setIconName(kind.iconName(isOn: isOn))
        button.setCSSClass("off", !isOn)
        // Set once: each change of a tooltip queries the one under the pointer again.
        button.tooltip = refusal ?? {
            switch (kind, isOn) {
            case (.microphone, true): tr("Turn off the microphone (%@)", kind.shortcut)
            case (.microphone, false): tr("Turn on the microphone (%@)", kind.shortcut)
            case (.camera, true): tr("Turn off the camera (%@)", kind.shortcut)
            case (.camera, false): tr("Turn on the camera (%@)", kind.shortcut)
            }
        }()
        button.setAccessibleDescription(isOn ? tr("%@ on", "\(kind.accessibleName)") : tr("%@ off", "\(kind.accessibleName)"))
    }
}
