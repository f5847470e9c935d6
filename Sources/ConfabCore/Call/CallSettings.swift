/// The local user's media choices, carried from the lobby into the call.
/// Immutable: change it with the `withUpdated…` methods so every change is one assignment.
public struct CallSettings: Equatable, Sendable, Codable {
    public let audioOn: Bool
    public let videoOn: Bool
    public let speakerOn: Bool
    // Which camera, microphone and speaker: the device preferences own those choices (the
    // lobby and the Devices popover write them; the media engine reads them when it starts).

    public init(audioOn: Bool = true, videoOn: Bool = true, speakerOn: Bool = true) {
        self.audioOn = audioOn
        self.videoOn = videoOn
        self.speakerOn = speakerOn
    }

    /// Everything on.
    public static let `default` = CallSettings()

    public func withUpdatedAudioState(_ audioOn: Bool) -> CallSettings {
        CallSettings(audioOn: audioOn, videoOn: videoOn, speakerOn: speakerOn)
    }

    public func withUpdatedVideoState(_ videoOn: Bool) -> CallSettings {
        CallSettings(audioOn: audioOn, videoOn: videoOn, speakerOn: speakerOn)
    }

    public func withUpdatedSpeakerState(_ speakerOn: Bool) -> CallSettings {
        CallSettings(audioOn: audioOn, videoOn: videoOn, speakerOn: speakerOn)
    }


    /// Whether anything needs publishing when joining.
    public var shouldPublish: Bool { audioOn || videoOn }
}
