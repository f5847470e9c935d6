import ConfabCore
import GLibBridge
import GtkBridge

/// Signal bars and a word for the connection to the call server.
@MainActor
final class ConnectionQualityIndicator {
    let view: Box
    private let icon = Image(iconName: "network-cellular-signal-none-symbolic")
    private let label = Label("", cssClasses: ["caption"])

    init() {
        label.ellipsizeAtEnd()
        view = Box(.horizontal, spacing: 6, children: [icon, label])
        view.addCSSClass("connection-quality")
    }

    func update(_ quality: ConnectionQuality) {
        let icons: [ConnectionQuality: String] = [
            .unknown: "network-cellular-signal-none-symbolic",
            .poor: "network-cellular-signal-weak-symbolic",
            .good: "network-cellular-signal-good-symbolic",
            .excellent: "network-cellular-signal-excellent-symbolic",
        ]
        icon.setIconName(icons[quality] ?? "network-cellular-signal-none-symbolic")
        label.text = quality.label
        view.setAccessibleLabel(quality.label)
        ConnectionQuality.allCases.forEach { view.setCSSClass("quality-\($0.rawValue)", $0 == quality) }
    }
}
