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

    public init(id: String, name: String, kind: Kind, isDefault: Bool = false, isTest: Bool = false) {
        self.id = id
        self.name = name
        self.kind = kind
        self.isDefault = isDefault
        self.isTest = isTest
    }
}

/// Chooses the device to use from what is present: the user's remembered choice when it is
/// plugged in, else the system default, else the first one.
public enum DeviceChoice {
    public static func pick(from devices: [MediaDevice], preferredID: String?) -> MediaDevice? {
        if let preferredID, let preferred = devices.first(where: { $0.id == preferredID }) { return preferred }
        return devices.first(where: \.isDefault) ?? devices.first
    }
}
