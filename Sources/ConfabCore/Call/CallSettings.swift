/// The local user's media choices, carried from the lobby into the call.
/// Immutable: change it with the `withUpdated…` methods so every change is one assignment.
public struct CallSettings: Equatable, Sendable, Codable {
    public let audioOn: Bool
    public let videoOn: Bool
    public let speakerOn: Bool
    /// The chosen camera's device id; nil means the system default.
    public let cameraID: String?

    public init(audioOn: Bool = true, videoOn: Bool = true, speakerOn: Bool = true, cameraID: String? = nil) {
        self.audioOn = audioOn
        self.videoOn = videoOn
        self.speakerOn = speakerOn
        self.cameraID = cameraID
    }

    /// Everything on, default camera.
    public static let `default` = CallSettings()

    public func withUpdatedAudioState(_ audioOn: Bool) -> CallSettings {
        CallSettings(audioOn: audioOn, videoOn: videoOn, speakerOn: speakerOn, cameraID: cameraID)
    }

    public func withUpdatedVideoState(_ videoOn: Bool) -> CallSettings {
        CallSettings(audioOn: audioOn, videoOn: videoOn, speakerOn: speakerOn, cameraID: cameraID)
    }

    public func withUpdatedSpeakerState(_ speakerOn: Bool) -> CallSettings {
        CallSettings(audioOn: audioOn, videoOn: videoOn, speakerOn: speakerOn, cameraID: cameraID)
    }

    public func withUpdatedCamera(_ cameraID: String?) -> CallSettings {
        CallSettings(audioOn: audioOn, videoOn: videoOn, speakerOn: speakerOn, cameraID: cameraID)
    }

    /// Whether anything needs publishing when joining.
    public var shouldPublish: Bool { audioOn || videoOn }
}
