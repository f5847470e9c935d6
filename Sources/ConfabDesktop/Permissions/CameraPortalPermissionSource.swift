import ConfabCore
import FoundationEssentials
import GLibBridge
import GtkBridge

/// The xdg-desktop-portal Camera portal, as GNOME Snapshot uses it.
///
/// Only a sandboxed app goes through the portal (the portal lets host apps in unasked), so
/// outside a sandbox this source stays quiet. Inside one: `IsCameraPresent` false means no camera
/// ("unavailable"); the permission store's `devices`/`camera` entry for our app id says whether
/// access was granted ("yes"), refused ("no": only Settings can undo it, since the portal never
/// asks again), or not yet asked — then `AccessCamera` is called only when the store is asked to
/// request access. A refusal comes back as "cancelled" (xdg-desktop-portal#654), so any answer but
/// 0 counts as a refusal.
@MainActor
final class CameraPortalPermissionSource: PermissionSource {
    let name = "camera portal"
    private let appID: String?
    private var camera: DBusProxy?
    private var permissionStore: DBusProxy?
    private var onChange: (@MainActor (PermissionDevice, PermissionReport) -> Void)?
    private var requestCounter = 0

    /// - Parameter appID: the sandbox's app id; by default read from /.flatpak-info (nil outside Flatpak).
    init(appID: String? = CameraPortalPermissionSource.flatpakAppID(infoPath: CameraPortalPermissionSource.flatpakInfoPath)) {
        self.appID = appID
    }

    func start(onChange: @escaping @MainActor (PermissionDevice, PermissionReport) -> Void) {
        // Outside a sandbox there is no portal permission to follow.
        guard appID != nil else { return }
        self.onChange = onChange
        DBusProxy.connect(name: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                          interface: "org.freedesktop.portal.Camera") { [weak self] proxy in
            guard let self, self.onChange != nil, let proxy, proxy.nameOwner != nil else { return }
            self.camera = proxy
            proxy.onPropertiesChanged { [weak self] in self?.lookUp() }
            self.lookUp()
        }
        DBusProxy.connect(name: "org.freedesktop.impl.portal.PermissionStore", path: "/org/freedesktop/impl/portal/PermissionStore",
                          interface: "org.freedesktop.impl.portal.PermissionStore") { [weak self] proxy in
            guard let self, self.onChange != nil, let proxy else { return }
            self.permissionStore = proxy
            // Settings' toggle changes the entry; follow it live.
            proxy.subscribe(interface: "org.freedesktop.impl.portal.PermissionStore", member: "Changed",
                            path: "/org/freedesktop/impl/portal/PermissionStore") { [weak self] _ in self?.lookUp() }
            self.lookUp()
        }
    }

    func stop() {
        camera = nil
        permissionStore = nil
        onChange = nil
    }

    func requestAccess(to device: PermissionDevice) async -> Bool {
        guard device == .camera, let camera, let sender = camera.uniqueName else { return false }
        requestCounter += 1
        let token = "confab\(requestCounter)"
        let path = "/org/freedesktop/portal/desktop/request/"
            + String(sender.dropFirst().replacing(".", with: "_")) + "/\(token)"
        // The first of the portal's Response signal and the call's failure answers; the
        // subscription, made before the call, is known to both.
        let request = PendingRequest()
        let granted: Bool = await withCheckedContinuation { continuation in
            request.subscription = camera.subscribe(interface: "org.freedesktop.portal.Request", member: "Response", path: path) { reply in
                guard !request.answered else { return }
                request.answered = true
                camera.unsubscribe(request.subscription)
                continuation.resume(returning: reply.children.first?.integer == 0)
            }
            camera.call("AccessCamera", arguments: "({'handle_token': <'\(token)'>},)") { result in
                guard case .failure(let error) = result, !request.answered else { return }
                print("confab: camera portal: AccessCamera failed: \(error)")
                request.answered = true
                camera.unsubscribe(request.subscription)
                continuation.resume(returning: false)
            }
        }
        onChange?(.camera, PermissionReport(granted ? .granted : .denied(.portal)))
        return granted
    }

    private func lookUp() {
        guard let onChange, let appID else { return }
        if camera?.cachedProperty("IsCameraPresent")?.bool == false {
            onChange(.camera, PermissionReport(.unavailable))
            return
        }
        guard let permissionStore else { return }
        permissionStore.call("Lookup", arguments: "('devices', 'camera')") { [weak self] result in
            guard let self, let onChange = self.onChange else { return }
            switch result {
            case .success(let reply):
                let answer = reply.children.first?.dictionary[appID]?.children.first?.string
                switch answer {
                case "yes": onChange(.camera, PermissionReport(.granted))
                case "no": onChange(.camera, PermissionReport(.denied(.portal)))
                default: onChange(.camera, PermissionReport(.unknown, canRequest: true))
                }
            case .failure:
                // No entry yet ("not found"): the portal will ask.
                onChange(.camera, PermissionReport(.unknown, canRequest: self.camera != nil))
            }
        }
    }

    /// Where Flatpak describes the sandbox; `CONFAB_FLATPAK_INFO` points elsewhere (the UI tests
    /// run a stand-in portal and pretend to be sandboxed).
    nonisolated static var flatpakInfoPath: String {
        ProcessInfo.processInfo.environment["CONFAB_FLATPAK_INFO"] ?? "/.flatpak-info"
    }

    /// The app id of a Flatpak sandbox ([Application] name= in /.flatpak-info).
    nonisolated static func flatpakAppID(infoPath: String = "/.flatpak-info") -> String? {
        guard let text = try? String(contentsOfFile: infoPath, encoding: .utf8) else { return nil }
        var inApplication = false
        for line in text.split(separator: "\n").map({ $0.trimmingSpaces() }) {
            if line.hasPrefix("[") { inApplication = line == "[Application]"; continue }
            if inApplication, line.hasPrefix("name=") { return String(line.dropFirst("name=".count)) }
        }
        return nil
    }
}

/// One AccessCamera request in flight: whether it has been answered, and the signal
/// subscription that waits for the answer.
@MainActor
private final class PendingRequest {
    var answered = false
    var subscription: UInt32 = 0
}
