import Observation

/// Whether Confab may use the camera and the microphone, combined from every source that knows
/// something about it (the seed's `PermissionStore`). Observable: the banner follows it live.
@Observable
@MainActor
public final class PermissionStore {
    public private(set) var cameraState: PermissionState = .unknown
    public private(set) var microphoneState: PermissionState = .unknown
    public private(set) var canRequestCamera = false
    public private(set) var canRequestMicrophone = false

    /// Whether the microphone's digital silence counts (the lobby feeds it; see `followMicrophoneSilence`).
    @ObservationIgnored public let microphoneSilence = MicrophoneSilenceSource()
    @ObservationIgnored private let sources: [PermissionSource]
    /// Each source's latest report, by source index and device.
    @ObservationIgnored private var reports: [Int: [PermissionDevice: PermissionReport]] = [:]
    @ObservationIgnored private var isStarted = false
    /// Told about every change of the combined state (the app logs it).
    @ObservationIgnored public var onStateChange: (@MainActor (PermissionDevice, PermissionState) -> Void)?

    public init(sources: [PermissionSource]) {
        self.sources = sources + [microphoneSilence]
    }

    /// The seed's names: access is there (or at least not refused).
    public var hasCameraPermission: Bool { !cameraState.isDenied }
    public var hasMicrophonePermission: Bool { !microphoneState.isDenied }

    public func state(of device: PermissionDevice) -> PermissionState {
        device == .camera ? cameraState : microphoneState
    }

    public func canRequest(_ device: PermissionDevice) -> Bool {
        device == .camera ? canRequestCamera : canRequestMicrophone
    }

    public func start() {
        guard !isStarted else { return }
        isStarted = true
        for (index, source) in sources.enumerated() {
            source.start { [weak self] device, report in self?.receive(report, for: device, from: index) }
        }
    }

    public func stop() {
        guard isStarted else { return }
        isStarted = false
        sources.forEach { $0.stop() }
        reports = [:]
        PermissionDevice.allCases.forEach(recombine)
    }

    /// Asks every source that can (the portal) for access; returns whether any granted it.
    @discardableResult
    public func requestAccess(to device: PermissionDevice) async -> Bool {
        var granted = false
        for (index, source) in sources.enumerated() where reports[index]?[device]?.canRequest == true {
            if await source.requestAccess(to: device) { granted = true }
        }
        return granted
    }

    /// The lobby measures the microphone; while it is open, its silence counts as a likely mute.
    public func followMicrophoneSilence(_ isSilent: @escaping @MainActor () -> Bool) { microphoneSilence.follow(isSilent) }
    public func stopFollowingMicrophoneSilence() { microphoneSilence.stopFollowing() }

    private func receive(_ report: PermissionReport, for device: PermissionDevice, from source: Int) {
        reports[source, default: [:]][device] = report
        recombine(device)
    }

    private func recombine(_ device: PermissionDevice) {
        let combined = Self.combine(reports.values.compactMap { $0[device] })
        let previous = state(of: device)
        switch device {
        case .camera:
            if cameraState != combined.state { cameraState = combined.state }
            if canRequestCamera != combined.canRequest { canRequestCamera = combined.canRequest }
        case .microphone:
            if microphoneState != combined.state { microphoneState = combined.state }
            if canRequestMicrophone != combined.canRequest { canRequestMicrophone = combined.canRequest }
        }
        if previous != combined.state { onStateChange?(device, combined.state) }
    }

    /// Combines the sources' reports on one device.
    ///
    /// No device at all wins (Settings cannot conjure a camera, so the banner must not send the
    /// user there); then any refusal (the first one, in source order, names the reason); then a question
    /// still to ask; then a grant; otherwise unknown. Asking can help only while nothing refuses for good.
    public nonisolated static func combine(_ reports: [PermissionReport]) -> PermissionReport {
        let states = reports.map(\.state)
        if states.contains(.unavailable) { return PermissionReport(.unavailable) }
        if let refusal = reports.first(where: { $0.state.isDenied }) {
            let onlyAskable = reports.filter { $0.state.isDenied }.allSatisfy(\.canRequest)
            return PermissionReport(refusal.state, canRequest: onlyAskable)
        }
        // A source that has yet to ask (a portal with no stored answer) outweighs the others' grants.
        if reports.contains(where: { $0.state == .unknown && $0.canRequest }) { return PermissionReport(.unknown, canRequest: true) }
        if states.contains(.granted) { return PermissionReport(.granted) }
        return .unknown
    }
}
