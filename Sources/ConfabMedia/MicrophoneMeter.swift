import ConfabCore
import GLibBridge

/// Measures the chosen microphone with GStreamer's `level` element, ten readings a second.
@MainActor
public final class MicrophoneMeter: MicrophoneLevelSource {
    /// Time between readings; 100 ms keeps the meter lively without waking the UI more.
    public static let interval: Duration = .milliseconds(100)

    private let devices: GStreamerDeviceSource
    private var pipeline: MediaPipeline?

    public init(devices: GStreamerDeviceSource) {
        self.devices = devices
    }

    public var isRunning: Bool { pipeline != nil }

    public func startMetering(_ microphone: MediaDevice, onLevel: @escaping @MainActor (Double) -> Void,
                              onFailure: @escaping @MainActor (String) -> Void) {
        stopMetering()
        guard let source = devices.source(for: microphone) else {
            onFailure("\(microphone.name) is no longer connected.")
            return
        }
        let nanoseconds = MicrophoneMeter.interval.components.attoseconds / 1_000_000_000
            + MicrophoneMeter.interval.components.seconds * 1_000_000_000
        do {
            let pipeline = try MediaPipeline(source: source, processing:
                "audioconvert ! level name=meter interval=\(nanoseconds) post-messages=true ! fakesink sync=false")
            pipeline.watchBus { [weak self] message in
                switch message {
                case .level(let reading): onLevel(reading.loudestRMS)
                case .error(let text, _, _, _):
                    self?.stopMetering()
                    onFailure("Microphone stopped: \(text)")
                default: break
                }
            }
            try pipeline.play()
            self.pipeline = pipeline
        } catch {
            onFailure("Can’t open \(microphone.name): \(error)")
        }
    }

    public func stopMetering() {
        pipeline?.stop()
        pipeline = nil
    }
}
