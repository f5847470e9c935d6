/// A camera, microphone or speaker the user can choose.
public struct MediaDevice: Hashable, Sendable, Identifiable {
    public enum Kind: String, Sendable, CaseIterable { case camera, microphone, speaker }

    public let id: String
    public let name: String
    public let kind: Kind
    /// The system's default for its kind.
    public let isDefault: Bool
    /// A synthetic device (`--test-devices`): a moving test pattern or a tone.
    public let isTest: Bool
    /// Not one device but whichever is the system's default, as the sound server moves it (a
    /// headset plugged in, another input chosen in Settings): what a call uses unless the user
    /// chose a device, as GNOME's own apps do.
    public let followsSystemDefault: Bool

    public init(id: String, name: String, kind: Kind, isDefault: Bool = false, isTest: Bool = false, followsSystemDefault: Bool = false) {
        self.id = id
        self.name = name
        self.kind = kind
        self.isDefault = isDefault
        self.isTest = isTest
        self.followsSystemDefault = followsSystemDefault
    }

    /// The system's default microphone or speaker, whichever it is at the moment. Its name is
    /// what the pickers and a toast about a failed device show.
    public static func systemDefault(_ kind: Kind) -> MediaDevice {
        MediaDevice(id: "system-default:\(kind.rawValue)", name: tr("System Default"), kind: kind, followsSystemDefault: true)
    }
}

/// Chooses the device to use from what is present: the user's remembered choice when it is
/// plugged in; else the system's default, followed as it changes (a headset plugged in, or
/// another device made the default in Settings), as GNOME's own apps do — by the sound server
/// where there is one (`followsSystemDefault`), else as the device list names it; else the one
/// in use, so that nothing moves while the system names no default; else the first one.
public enum DeviceChoice {
    public static func pick(from devices: [MediaDevice], preferredID: String?, current: MediaDevice? = nil) -> MediaDevice? {
        if let preferredID, let preferred = devices.first(where: { $0.id == preferredID }) { return preferred }
        if let following = devices.first(where: \.followsSystemDefault) { return following }
        if let systemDefault = devices.first(where: \.isDefault) { return systemDefault }
        if let current, let same = devices.first(where: { $0.id == current.id }) { return same }
        return devices.first
    }

    /// The remembered choices plugged in or pulled out between `before` and `now`: a call
    /// chooses its devices again for their kinds, and says so. Pulled out, the sound server
    /// moves a stream to the default by itself, with no error for the app to see, and the call
    /// took the headset for still in use; plugged back in, the call takes it back (the lobby
    /// chooses again on every change; a call keeps what it uses until something says otherwise).
    public static func rememberedDevicesPluggedInOrOut(before: [MediaDevice], now: [MediaDevice],
                                                       preferredID: (MediaDevice.Kind) -> String?) -> [RememberedDeviceChange] {
        MediaDevice.Kind.allCases.compactMap { kind in
            guard let id = preferredID(kind) else { return nil }
            let find = { (devices: [MediaDevice]) in devices.first { $0.kind == kind && $0.id == id } }
            switch (find(before), find(now)) {
            case (let gone?, nil): return RememberedDeviceChange(device: gone, isPluggedIn: false)
            case (nil, let back?): return RememberedDeviceChange(device: back, isPluggedIn: true)
            default: return nil
            }
        }
    }
}

/// The user's remembered camera, microphone or speaker, plugged in or pulled out.
public struct RememberedDeviceChange: Equatable, Sendable {
    /// As it was listed while it was there.
    public var device: MediaDevice
    /// Plugged (back) in; else pulled out.
    public var isPluggedIn: Bool

    public init(device: MediaDevice, isPluggedIn: Bool) {
        self.device = device
        self.isPluggedIn = isPluggedIn
    }
}

extension MediaDevice {
    /// Whether this is the same device as `other`, whatever the system now says of it (its name,
    /// whether it is the default).
    public func isSameDevice(as other: MediaDevice?) -> Bool { id == other?.id }
}
