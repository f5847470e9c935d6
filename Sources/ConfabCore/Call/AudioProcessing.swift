/// What is done to our microphone's sound before it is sent. Each is on by default (Preferences
/// and confab-peer's flags turn them off): without echo cancellation, people on laptop speakers
/// hear their own voice come back.
public struct AudioProcessing: Equatable, Sendable, Codable {
    /// Removes the participants' voices that our microphone picks up from our speaker.
    public var echoCancellation: Bool
    /// Removes steady background noise (fans, hum, hiss) between and under words.
    public var noiseSuppression: Bool
    /// Evens out our level: a quiet or distant voice is raised, a loud one is kept from clipping.
    public var automaticGainControl: Bool

    public init(echoCancellation: Bool = true, noiseSuppression: Bool = true, automaticGainControl: Bool = true) {
        self.echoCancellation = echoCancellation
        self.noiseSuppression = noiseSuppression
        self.automaticGainControl = automaticGainControl
    }

    /// Everything on.
    public static let `default` = AudioProcessing()
    /// Everything off: the microphone goes out as it is.
    public static let off = AudioProcessing(echoCancellation: false, noiseSuppression: false, automaticGainControl: false)

    /// Whether anything at all is done to the sound.
    public var isAnyOn: Bool { echoCancellation || noiseSuppression || automaticGainControl }
}
