import ConfabCore
import GLibBridge

/// Cameras, microphones and speakers from GStreamer's device monitor, plus synthetic test
/// devices when asked (`--test-devices`), so the whole lobby works on a machine without any.
@MainActor
public final class GStreamerDeviceSource: DeviceSource {
    private let monitor = DeviceMonitor()
    private let includeTestDevices: Bool
    /// The monitor's devices by our id, to open the right one later.
    private var systemDevices: [String: SystemDevice] = [:]
    /// Synthetic sources added by programs (confab-peer's coloured test camera, a tone at a set level).
    private var syntheticDevices: [(device: MediaDevice, source: MediaPipeline.Source)] = []

    public init(includeTestDevices: Bool) {
        self.includeTestDevices = includeTestDevices
    }

    public func startMonitoring(onChange: @escaping @MainActor ([MediaDevice]) -> Void) {
        monitor.start { [weak self] in
            guard let self else { return }
            onChange(self.currentDevices())
        }
        onChange(currentDevices())
    }

    public func stopMonitoring() { monitor.stop() }

    /// The devices present now (probes the system when monitoring is not running).
    public func devicesNow() -> [MediaDevice] { currentDevices() }

    /// Adds a synthetic device whose media comes from a gst-launch source fragment, e.g.
    /// `videotestsrc is-live=true pattern=solid-color foreground-color=0xffff0000` (for a
    /// speaker: where its sound goes, e.g. `fakesink sync=true`). Returns the device.
    @discardableResult
    public func addSyntheticDevice(id: String, name: String, kind: MediaDevice.Kind, source: String) -> MediaDevice {
        addSyntheticDevice(id: id, name: name, kind: kind, source: .description(source))
    }

    /// Adds a synthetic device whose media comes from `source` (the moving ball, say). Returns the device.
    @discardableResult
    public func addSyntheticDevice(id: String, name: String, kind: MediaDevice.Kind, source: MediaPipeline.Source) -> MediaDevice {
        let device = MediaDevice(id: id, name: name, kind: kind, isTest: true)
        syntheticDevices.removeAll { $0.device.id == id }
        syntheticDevices.append((device, source))
        return device
    }

    /// A gst-launch description of the element that plays to `speaker`: the device itself when it
    /// can be named, else the system default output; test speakers discard (in time).
    func sinkDescription(for speaker: MediaDevice?) -> String {
        guard let speaker else { return "autoaudiosink" }
        // Named no device, PulseAudio plays to the default and moves the stream when it changes.
        if speaker.followsSystemDefault { return "pulsesink" }
        // A program's own speaker (confab-peer's simulated room, its listening ear) is a sink description.
        if let synthetic = syntheticDevices.first(where: { $0.device.id == speaker.id }), case .description(let sink) = synthetic.source { return sink }
        if speaker.isTest { return "fakesink sync=true" }
        return systemDevices[speaker.id]?.elementDescription ?? "autoaudiosink"
    }

    /// Where a pipeline gets this device's media from.
    func source(for device: MediaDevice) -> MediaPipeline.Source? {
        if device.followsSystemDefault { return .description("pulsesrc") }
        if let test = TestDevice(rawValue: device.id) { return test.source }
        if let synthetic = syntheticDevices.first(where: { $0.device.id == device.id }) { return synthetic.source }
        return systemDevices[device.id].map { .device($0) }
    }

    private func currentDevices() -> [MediaDevice] {
        let found = monitor.devices
        let unique = Self.usable(found)
        systemDevices = Dictionary(uniqueKeysWithValues: unique.map { ($0.id, $0) })
        var devices = unique.map { device in
            MediaDevice(id: device.id, name: device.displayName, kind: device.kind.mediaKind, isDefault: device.isDefault)
        }
        // Where PulseAudio's server runs, the system's default microphone and speaker come
        // first: opened without naming a device, the server moves them as the default changes.
        let followed = [SystemDevice.Kind.microphone, .speaker].filter { kind in found.contains { $0.kind == kind && $0.isPulseAudio } }
        devices.insert(contentsOf: followed.map { MediaDevice.systemDefault($0.mediaKind) }, at: 0)
        if includeTestDevices { devices += TestDevice.allCases.map(\.device) }
        return devices + syntheticDevices.map(\.device)
    }

    /// What the monitor lists, one entry per device, each one the app can open. PipeWire and
    /// PulseAudio both report a GNOME session's microphones and speakers (its PipeWire serves
    /// PulseAudio's protocol too): PulseAudio's entry is the one kept. GStreamer lists PipeWire's
    /// first, without a word on which is the default, so the call took whichever microphone came
    /// first; and PipeWire's element for a microphone does not connect in the app ("cannot be
    /// connected": bob heard nothing; UI AChosenMicrophone). So where PulseAudio's server runs, a
    /// sound device PipeWire alone lists is left out: a device just plugged in is listed by
    /// PipeWire a few milliseconds before PulseAudio, and a call taking its chosen headset back
    /// in between opened PipeWire's entry, failed and went silent (UI
    /// AChosenMicrophonePluggedBackIn, one run in three under load). It is listed once
    /// PulseAudio's entry comes. Cameras are not PulseAudio's: all are kept.
    nonisolated static func usable<Device: ListedDevice>(_ found: [Device]) -> [Device] {
        let pulseAudioRuns = found.contains(where: \.isPulseAudio)
        let openable = found.filter { !pulseAudioRuns || $0.isPulseAudio || $0.kind == .camera }
        var seen = Set<String>()
        return openable.sorted { $0.isPulseAudio && !$1.isPulseAudio }.filter { seen.insert($0.id).inserted }
    }
}

/// A device as a device monitor lists it: what `GStreamerDeviceSource.usable` needs to know.
protocol ListedDevice {
    var id: String { get }
    var kind: SystemDevice.Kind { get }
    var isPulseAudio: Bool { get }
}

extension SystemDevice: ListedDevice {}

/// Synthetic devices: a moving test pattern, a steady tone, a silent microphone and a speaker
/// that discards sound.
enum TestDevice: String, CaseIterable {
    case camera = "test:camera"
    case toneMicrophone = "test:microphone"
    case silentMicrophone = "test:microphone-silent"
    case speaker = "test:speaker"

    var device: MediaDevice {
        switch self {
        case .camera: MediaDevice(id: rawValue, name: "Test Camera (moving pattern)", kind: .camera, isTest: true)
        case .toneMicrophone: MediaDevice(id: rawValue, name: "Test Microphone (tone)", kind: .microphone, isTest: true)
        case .silentMicrophone: MediaDevice(id: rawValue, name: "Test Microphone (silence)", kind: .microphone, isTest: true)
        case .speaker: MediaDevice(id: rawValue, name: "Test Speaker (discards sound)", kind: .speaker, isTest: true)
        }
    }

    var source: MediaPipeline.Source {
        switch self {
        // A ball moving over blue-grey (meson-helpers/bench-lobby's floor shows that blue-grey).
        case .camera: .movingBall(background: 0xff30_3846)
        case .toneMicrophone: .description("audiotestsrc is-live=true wave=sine freq=440 volume=0.5")
        case .silentMicrophone: .description("audiotestsrc is-live=true wave=sine volume=0")
        case .speaker: .description("fakesink")
        }
    }
}

extension SystemDevice.Kind {
    var mediaKind: MediaDevice.Kind {
        switch self { case .camera: .camera; case .microphone: .microphone; case .speaker: .speaker }
    }
}
