import Observation

/// Tells whether the microphone delivers sound, from its recent levels.
///
/// Keeps the last `valueLimit` readings (dBFS). The mic "doesn't seem to be working" when a
/// full window of readings is all at or below `silenceThreshold`: real microphones pick up
/// some room noise, so only a muted, broken or disconnected device stays that quiet.
@Observable
@MainActor
public final class MicrophoneChecker {
    public let valueLimit: Int
    public let silenceThreshold: Double
    /// The most recent readings, oldest first.
    public private(set) var decibels: [Double] = []

    /// - Parameters:
    ///   - valueLimit: readings to judge by; 30 at 10 readings a second is 3 s.
    ///   - silenceThreshold: dBFS at or below which a reading counts as silence.
    public init(valueLimit: Int = 30, silenceThreshold: Double = -80) {
        self.valueLimit = max(1, valueLimit)
        self.silenceThreshold = silenceThreshold
    }

    public func record(decibels value: Double) {
        decibels.append(value.isNaN ? -.infinity : value)
        if decibels.count > valueLimit { decibels.removeFirst(decibels.count - valueLimit) }
    }

    /// Forget the history (another mic was chosen, or the mic was turned off).
    public func reset() { decibels = [] }

    /// False only once a full window of readings was silent; true while still listening.
    public var hasDecibelValues: Bool {
        decibels.count < valueLimit || decibels.contains { $0 > silenceThreshold }
    }

    public var isSilent: Bool { !hasDecibelValues }

    /// The latest level mapped to 0…1 for a meter (−60 dBFS and below → 0, 0 dBFS → 1).
    public var meterLevel: Double {
        guard let latest = decibels.last, latest.isFinite else { return 0 }
        return min(1, max(0, (latest + 60) / 60))
    }
}
