import GLibBridge

/// A round microphone or camera button: pressed means on. Stateless: it shows `isOn` and
/// reports the user's toggles; the owner decides what they do.
@MainActor
final class MediaToggle {
    enum Kind {
        case microphone, camera

        var accessibleName: String { self == .microphone ? "Microphone" : "Camera" }
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

    func update(isOn: Bool) {
        button.isActive = isOn
        button.setIconName(kind.iconName(isOn: isOn))
        button.setCSSClass("off", !isOn)
        let name = kind.accessibleName.lowercased()
        button.tooltip = "\(isOn ? "Turn off" : "Turn on") \(name) (\(kind.shortcut))"
        button.setAccessibleDescription(isOn ? "\(kind.accessibleName) on" : "\(kind.accessibleName) off")
    }
}
