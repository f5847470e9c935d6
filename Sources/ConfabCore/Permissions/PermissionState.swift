/// A device a call needs the user's permission for.
public enum PermissionDevice: String, CaseIterable, Sendable {
    case camera, microphone
}

/// Whether Confab may use a device, as far as one source (or all of them together) can tell.
public enum PermissionState: Equatable, Sendable {
    /// Nothing stands in the way.
    case granted
    /// Something refuses access; `denial` says what, so the banner can say what to do.
    case denied(PermissionDenial)
    /// There is no such device at all: nothing to grant, and nothing Settings can fix.
    case unavailable
    /// The source cannot tell (yet).
    case unknown

    public var isDenied: Bool { if case .denied = self { true } else { false } }

    /// A short name for logs and tests ("granted", "denied", "unavailable", "unknown").
    public var name: String {
        switch self {
        case .granted: "granted"
        case .denied: "denied"
        case .unavailable: "unavailable"
        case .unknown: "unknown"
        }
    }
}

/// Why access is refused.
public enum PermissionDenial: Equatable, Sendable {
    /// GNOME's privacy switch (`org.gnome.desktop.privacy disable-camera` / `disable-microphone`).
    case privacySetting
    /// The camera portal (or its permission store) refused Confab.
    case portal
    /// The device node exists but this account may not open it (`path` is the first such node).
    case deviceNotReadable(path: String)
    /// The microphone is on and opens, but delivers digital silence: most likely muted by the system.
    case likelySystemMute
}

/// One source's verdict on one device.
public struct PermissionReport: Equatable, Sendable {
    public var state: PermissionState
    /// Whether asking (a portal dialog) could grant access without a trip to Settings.
    public var canRequest: Bool

    public init(_ state: PermissionState, canRequest: Bool = false) {
        self.state = state
        self.canRequest = canRequest
    }

    public static let unknown = PermissionReport(.unknown)
}
