import ConfabCore
import GLibBridge
import GtkBridge

/// Signal bars and a word for the connection to the call server.
@MainActor
final class ConnectionQualityIndicator {
    let view: Box
    private let icon = Image(iconName: "network-cellular-signal-none-symbolic")
    private let label = Label("", cssClasses: ["caption"])
    private let showsWord: Bool

    /// - Parameter showsWord: false for the bars alone, the word in their tooltip (a call's
    ///   tiles, where the word did not fit a small tile and ended "Connec…").
    init(showsWord: Bool = true) {
        self.showsWord = showsWord
        label.ellipsizeAtEnd()
        view = Box(.horizontal, spacing: 6, children: showsWord ? [icon, label] : [icon])
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
        if showsWord { label.text = quality.label } else { view.tooltip = quality.label }
        view.setAccessibleLabel(quality.label)
        ConnectionQuality.allCases.forEach { view.setCSSClass("quality-\($0.rawValue)", $0 == quality) }
    }
}
