/// A camera or microphone that stopped working during a call (unplugged, taken by another
/// program), and the device that took over, if any.
public struct MediaDeviceFailure: Sendable, Equatable {
    public var device: MediaDevice
    public var replacement: MediaDevice?
    /// The media framework's words for what went wrong (for logs).
    public var detail: String

    public init(device: MediaDevice, replacement: MediaDevice?, detail: String) {
        self.device = device
        self.replacement = replacement
        self.detail = detail
    }
}
