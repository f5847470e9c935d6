/// Whether the desktop lets Confab use the camera and the microphone: GNOME's privacy switches
/// and the camera portal can refuse either at any time. A refusal is obeyed, not only shown: the
/// device is closed and nothing is sent, whatever the user's toggle says; when access returns,
/// the device opens again if the toggle is on.
public struct DeviceAccess: Equatable, Sendable {
    public var camera: Bool
    public var microphone: Bool

    public init(camera: Bool = true, microphone: Bool = true) {
        self.camera = camera
        self.microphone = microphone
    }

    /// Whether a permission state forbids using the device. Only explicit refusals count: a
    /// silent microphone is only *probably* muted by the system, and a device that is missing
    /// or unreadable fails on its own.
    public static func allows(_ state: PermissionState) -> Bool {
        switch state {
        case .denied(.privacySetting), .denied(.portal): false
        default: true
        }
    }
}
