// What the lobby needs from the machine, as protocols: ConfabMedia implements them with
// GStreamer; ConfabCore's tests use fakes. None of them leak a GStreamer or GTK type.

/// Lists capture and playback devices and reports changes (plug/unplug).
@MainActor
public protocol DeviceSource: AnyObject {
    /// Starts watching; `onChange` gets the full list now and after every change.
    func startMonitoring(onChange: @escaping @MainActor ([MediaDevice]) -> Void)
    func stopMonitoring()
}

/// Measures the microphone's loudness for the lobby's meter and the silence check.
@MainActor
public protocol MicrophoneLevelSource: AnyObject {
    /// Starts metering `microphone`; `onLevel` gets the loudest channel's RMS in dBFS about 10 times
    /// a second; `onFailure` gets a sentence for the user if the device cannot be opened or dies.
    func startMetering(_ microphone: MediaDevice,
                       onLevel: @escaping @MainActor (Double) -> Void,
                       onFailure: @escaping @MainActor (String) -> Void)
    func stopMetering()
}

/// Runs the camera preview. Frames go straight from the media layer to the view that shows
/// them; the view model only decides when the camera runs.
@MainActor
public protocol CameraPreviewSource: AnyObject {
    func startPreview(_ camera: MediaDevice, onFailure: @escaping @MainActor (String) -> Void)
    func stopPreview()
}

/// Measures the round-trip time to the call server.
public protocol LatencyProbe: Sendable {
    /// One measurement; nil when the server could not be reached.
    func measureRoundTrip() async -> Duration?
}

/// Remembers the user's device choices across runs.
@MainActor
public protocol DevicePreferences: AnyObject {
    func preferredDeviceID(for kind: MediaDevice.Kind) -> String?
    func setPreferredDeviceID(_ id: String, for kind: MediaDevice.Kind)
}
