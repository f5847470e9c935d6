import ConfabCore
import GLibBridge

/// GNOME's privacy switches (`org.gnome.desktop.privacy` `disable-camera`, `disable-microphone`),
/// watched live. Says nothing when gsettings-desktop-schemas is not installed.
@MainActor
final class PrivacySettingsPermissionSource: PermissionSource {
    let name = "privacy settings"
    static let schemaID = "org.gnome.desktop.privacy"
    private static let keys: [(PermissionDevice, String)] = [(.camera, "disable-camera"), (.microphone, "disable-microphone")]
    private var settings: Settings?
    private var connections: [SignalConnection] = []
    private var onChange: (@MainActor (PermissionDevice, PermissionReport) -> Void)?

    func start(onChange: @escaping @MainActor (PermissionDevice, PermissionReport) -> Void) {
        guard let settings = Settings(schemaID: Self.schemaID, requiredKeys: Self.keys.map(\.1)) else {
            print("confab: \(Self.schemaID) is not installed; the privacy switches are not watched")
            return
        }
        self.settings = settings
        self.onChange = onChange
        for (device, key) in Self.keys {
            connections.append(settings.onChange(of: key) { [weak self] in self?.report(device, key: key) })
            report(device, key: key)
        }
    }

    func stop() {
        connections.forEach { $0.disconnect() }
        connections = []
        settings = nil
        onChange = nil
    }

    private func report(_ device: PermissionDevice, key: String) {
        guard let settings, let onChange else { return }
        onChange(device, PermissionReport(settings.bool(key) ? .denied(.privacySetting) : .granted))
    }
}
