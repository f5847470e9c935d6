import ConfabCore
import FoundationEssentials
import GLibBridge
import GtkBridge

/// Opens the page of the desktop's settings where access can be given back.
///
/// GNOME: `gnome-control-center camera` / `microphone` / `privacy` (or `sound` for a muted
/// microphone), whichever panels the installed version has — each panel ships a desktop file,
/// `gnome-<panel>-panel.desktop` (`org.gnome.Settings-<panel>-panel.desktop` from GNOME 46).
/// KDE: the matching System Settings module. Anything else, or nothing to launch: a dialog that
/// says where to look. Programs start through GIO and are never waited for.
struct SettingsLauncher {
    enum Target: Equatable {
        case program([String])
        case help(heading: String, body: String)
    }

    var environment = ProcessInfo.processInfo.environment
    var findProgram: (String) -> String? = { ProgramLauncher.findProgram($0) }
    var fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }

    /// What to open for the devices the banner names, given why each is refused.
    @MainActor
    func target(for devices: [PermissionDevice], store: PermissionStore) -> Target {
        let denials = devices.compactMap { device -> PermissionDenial? in
            if case .denied(let denial) = store.state(of: device) { return denial }
            return nil
        }
        if let path = denials.lazy.compactMap({ if case .deviceNotReadable(let path) = $0 { path } else { nil } }).first {
            return .help(heading: tr("Camera Not Accessible"),
                         body: tr("Your account may not open %@. Ask an administrator to add you to the video group ", "\(path)")
                             + tr("(sudo usermod -aG video $USER), then log out and back in."))
        }
        let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").uppercased().split(separator: ":").map(String.init)
        if desktop.contains(where: { $0.contains("GNOME") || $0 == "UNITY" }), let gnome = gnomeTarget(devices, denials: denials) {
            return gnome
        }
        if desktop.contains("KDE"), let kde = kdeTarget(devices, denials: denials) { return kde }
        return .help(heading: tr("Allow Camera and Microphone"),
                     body: tr("Open your system's settings and look under Privacy for the camera and microphone switches, ")
                         + tr("and under Sound for a muted microphone. Confab notices the change by itself."))
    }

    private func gnomeTarget(_ devices: [PermissionDevice], denials: [PermissionDenial]) -> Target? {
        guard let program = findProgram("gnome-control-center") else { return nil }
        let wanted: [String]
        if denials == [.likelySystemMute] {
            wanted = ["sound"]
        } else if devices.count > 1 {
            wanted = ["privacy", devices[0].rawValue]
        } else if let device = devices.first {
            wanted = [device.rawValue, "privacy"]
        } else {
            wanted = []
        }
        if let panel = wanted.first(where: hasGnomePanel) { return .program([program, panel]) }
        return .program([program])
    }

    private func kdeTarget(_ devices: [PermissionDevice], denials: [PermissionDenial]) -> Target? {
        guard let program = findProgram("systemsettings") ?? findProgram("systemsettings5") else { return nil }
        // Plasma has no camera switch of its own; for a sandboxed app the Flatpak permissions
        // module holds it. The microphone's mute and volume are in the audio module.
        if devices.contains(.microphone) { return .program([program, "kcm_pulseaudio"]) }
        if CameraPortalPermissionSource.flatpakAppID(infoPath: CameraPortalPermissionSource.flatpakInfoPath) != nil { return .program([program, "kcm_flatpak"]) }
        return nil
    }

    private func hasGnomePanel(_ panel: String) -> Bool {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/share"
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        let names = ["gnome-\(panel)-panel.desktop", "org.gnome.Settings-\(panel)-panel.desktop"]
        return ([dataHome] + dataDirs).contains { directory in names.contains { fileExists("\(directory)/applications/\($0)") } }
    }

    /// Opens `target`; `onFailure` gets a sentence for a toast when the program cannot start or fails.
    @MainActor
    func open(_ target: Target, over widget: Widget, onFailure: @escaping @MainActor (String) -> Void) {
        switch target {
        case .help(let heading, let body):
            MessageDialog.present(heading: heading, body: body, over: widget)
        case .program(let arguments):
            print("confab: opening settings: \(arguments.joined(separator: " "))")
            do {
                try ProgramLauncher.launch(arguments) { status in
                    if let status, status != 0 { onFailure(tr("Settings closed with an error (status %@).", "\(status)")) }
                }
            } catch {
                print("confab: could not start \(arguments[0]): \(error)")
                onFailure(tr("Couldn't open Settings: %@", "\(error)"))
            }
        }
    }
}
