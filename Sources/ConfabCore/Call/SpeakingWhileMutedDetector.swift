/// "You are muted": the microphone is measured even while muted (before the mute), and talking
/// into a muted microphone for about a second shows a hint until the user unmutes or goes quiet.
/// Decides that from successive microphone readings.
public struct SpeakingWhileMutedDetector: Sendable, Equatable {
    /// dBFS above which a reading counts as talking (speech is roughly −30 to −10).
    public static let talkingThreshold = -40.0
    /// Readings in a row above the threshold before the hint shows (5 a second: about 0.6 s).
    public var readingsToShow = 3
    /// Quiet readings in a row before it hides again (about 2 s).
    public var readingsToHide = 10
    public private(set) var isSpeakingWhileMuted = false
    private var loudInARow = 0
    private var quietInARow = 0

    public init() {}

    /// Feeds one reading; returns whether the hint should show now.
    public mutating func record(decibels: Double, microphoneOn: Bool) -> Bool {
        guard !microphoneOn else {
            self = SpeakingWhileMutedDetector(readingsToShow: readingsToShow, readingsToHide: readingsToHide)
            return false
        }
        if decibels > Self.talkingThreshold {
            loudInARow += 1
            quietInARow = 0
            if loudInARow >= readingsToShow { isSpeakingWhileMuted = true }
        } else {
            quietInARow += 1
            loudInARow = 0
            if quietInARow >= readingsToHide { isSpeakingWhileMuted = false }
        }
        return isSpeakingWhileMuted
    }

    private init(readingsToShow: Int, readingsToHide: Int) {
        self.readingsToShow = readingsToShow
        self.readingsToHide = readingsToHide
    }
}
