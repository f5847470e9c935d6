import ConfabCore
import FoundationEssentials
import Glibc

/// Whether a camera and a microphone exist and this account may open them.
///
/// No device at all is "unavailable" (not a refusal: Settings cannot help). Video device nodes
/// that exist but cannot be opened are "denied" with the first node's path, so the banner can
/// hint at the video group: Debian gives /dev/video* to root:video with mode 0660.
@MainActor
public final class DevicePresencePermissionSource: PermissionSource {
    public let name = "devices"
    private let devices: DeviceSource
    private let deviceDirectory: String
    private var onChange: (@MainActor (PermissionDevice, PermissionReport) -> Void)?

    /// - Parameters:
    ///   - devices: a device source of its own (one `DeviceSource` serves one watcher).
    ///   - deviceDirectory: where the video nodes are ("/dev"; tests point it elsewhere).
    public init(devices: DeviceSource, deviceDirectory: String = "/dev") {
        self.devices = devices
        self.deviceDirectory = deviceDirectory
    }

    public func start(onChange: @escaping @MainActor (PermissionDevice, PermissionReport) -> Void) {
        self.onChange = onChange
        devices.startMonitoring { [weak self] present in self?.report(present) }
    }

    public func stop() {
        devices.stopMonitoring()
        onChange = nil
    }

    private func report(_ present: [MediaDevice]) {
        guard let onChange else { return }
        onChange(.camera, cameraReport(listed: present.contains { $0.kind == .camera }))
        onChange(.microphone, PermissionReport(present.contains { $0.kind == .microphone } ? .granted : .unavailable))
    }

    private func cameraReport(listed: Bool) -> PermissionReport {
        let nodes = videoNodes()
        if nodes.contains(where: { access($0, R_OK | W_OK) == 0 }) || listed { return PermissionReport(.granted) }
        if let first = nodes.first { return PermissionReport(.denied(.deviceNotReadable(path: first))) }
        return PermissionReport(.unavailable)
    }

    private func videoNodes() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: deviceDirectory)) ?? []
        return names.filter { $0.hasPrefix("video") }.sorted().map { "\(deviceDirectory)/\($0)" }
    }
}
