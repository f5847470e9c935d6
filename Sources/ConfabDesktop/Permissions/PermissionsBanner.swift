import ConfabCore
import GLibBridge
import GtkBridge

/// The banner at the top of the lobby and the call window: what access is missing, why, and
/// "Open Settings" / "Dismiss". libadwaita 1.2 has no AdwBanner, so it is a card-styled row.
/// It follows the prompt view model: it shows and hides itself as access goes and comes back.
@MainActor
final class PermissionsBanner {
    /// The widget to put in a window.
    let view: Box
    private let prompt: PermissionsPromptViewModel
    private let launcher: SettingsLauncher
    private weak var toasts: ToastOverlay?
    private let titleLabel = Label("", cssClasses: ["heading"])
    private let messageLabel = Label("", cssClasses: ["caption"])
    private let openSettings = Button(label: tr("Open Settings"))
    private let dismiss = Button(label: tr("Dismiss"))
    private var binding: ObservationBinding?
    private var requestsCameraAccess: Bool

    /// - Parameters:
    ///   - toasts: where a failure to open Settings is reported (the window's toast overlay).
    ///   - requestsCameraAccess: ask once (the portal's dialog) when the store says asking could help.
    init(prompt: PermissionsPromptViewModel, toasts: ToastOverlay?, requestsCameraAccess: Bool = false,
         launcher: SettingsLauncher = SettingsLauncher()) {
        self.prompt = prompt
        self.requestsCameraAccess = requestsCameraAccess
        self.toasts = toasts
        self.launcher = launcher
        let icon = Image(iconName: "dialog-warning-symbolic", pixelSize: 24)
        icon.addCSSClass("warning")
        icon.align(vertical: .center)
        titleLabel.align(horizontal: .start)
        messageLabel.align(horizontal: .start)
        messageLabel.wrap()
        messageLabel.setCSSClass("dim-label", true)
        let text = Box(.vertical, spacing: 2, children: [titleLabel, messageLabel])
        text.expand(horizontally: true, vertically: false)
        text.align(vertical: .center)
        text.setMargins(top: 8, bottom: 8, start: 0, end: 0)
        icon.setMargins(top: 0, bottom: 0, start: 12, end: 0)
        dismiss.setMargins(top: 0, bottom: 0, start: 0, end: 8)
        openSettings.addCSSClass("suggested-action")
        openSettings.align(vertical: .center)
        dismiss.addCSSClass("flat")
        dismiss.align(vertical: .center)
        view = Box(.horizontal, spacing: 12, children: [icon, text, openSettings, dismiss])
        view.addCSSClass("card")
        view.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        view.expand(horizontally: true, vertically: false)

        openSettings.onClicked { [weak self] in self?.openSystemSettings() }
        dismiss.onClicked { [weak self] in self?.prompt.dismiss() }
        binding = ObservationBinding { [weak self] in self?.update() }
    }

    func stop() { binding?.cancel() }

    private func update() {
        if requestsCameraAccess, prompt.store.canRequestCamera, prompt.requiresCamera {
            requestsCameraAccess = false
            let store = prompt.store
            Task { await store.requestAccess(to: .camera) }
        }
        let shown = prompt.isShown
        view.isVisible = shown
        guard shown else { return }
        titleLabel.text = prompt.title
        messageLabel.text = prompt.message
    }

    private func openSystemSettings() {
        let target = launcher.target(for: prompt.missingDevices, store: prompt.store)
        launcher.open(target, over: view) { [weak self] message in
            guard let toasts = self?.toasts else { return print("confab: \(message)") }
            toasts.showToast(message)
        }
    }
}
