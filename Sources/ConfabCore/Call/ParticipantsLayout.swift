/// How the call window arranges participants (the SDK's layouts).
public enum ParticipantsLayout: String, Sendable, CaseIterable, Codable {
    /// Everyone in equal tiles.
    case grid
    /// The pinned participant or the dominant speaker large, the others in a strip.
    case spotlight
    /// One participant filling the window (pinned, else the dominant speaker).
    case fullScreen

    public var title: String {
        switch self { case .grid: tr("Grid"); case .spotlight: tr("Spotlight"); case .fullScreen: tr("Full Screen") }
    }
}

/// A sound the app plays for the calling state: it loops until the state changes.
public enum CallSound: String, Sendable, Equatable {
    /// Someone is ringing us.
    case incomingRing
    /// We are ringing someone (ringback).
    case outgoingRing

    /// The sound for a state; none while idle, joining or in a call (as in the SDK).
    public static func forState(_ state: CallingState) -> CallSound? {
        switch state {
        case .incoming: .incomingRing
        case .outgoing: .outgoingRing
        default: nil
        }
    }
}

/// Why a call ended, for the call-ended page.
public struct EndedCall: Sendable, Equatable {
    public let call: CallID?
    public let reason: String
    /// A ring we did not take: the page offers to call back.
    public let missed: MissedCall?
    public init(call: CallID?, reason: String, missed: MissedCall? = nil) {
        self.call = call
        self.reason = reason
        self.missed = missed
    }
}
