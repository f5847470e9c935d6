import FoundationEssentials

/// The live part of a call: who is in it and how the current ring is going. Not persisted — a
/// server restart starts every call with an empty session.
public struct CallSession: Codable, Sendable, Hashable {
    public var participants: [CallParticipant]
    /// The ring in progress, if any.
    public var ringing: Ringing?
    /// Users who accepted the latest ring, and when.
    public var acceptedBy: [String: Date]
    /// Users who rejected the latest ring, with their reason.
    public var rejectedBy: [String: RejectReason]
    /// Users who did not answer the latest ring before it timed out.
    public var missedBy: [String]

    public init(
        participants: [CallParticipant] = [], ringing: Ringing? = nil, acceptedBy: [String: Date] = [:],
        rejectedBy: [String: RejectReason] = [:], missedBy: [String] = []
    ) {
        self.participants = participants
        self.ringing = ringing
        self.acceptedBy = acceptedBy
        self.rejectedBy = rejectedBy
        self.missedBy = missedBy
    }
}

/// A ring in progress.
public struct Ringing: Codable, Sendable, Hashable {
    /// The user who rang.
    public var callerId: String
    /// Everyone rung (the caller is never among them).
    public var memberIds: [String]
    public var video: Bool
    public var startedAt: Date
    /// When the server gives up and sends `call.missed` to whoever has not answered.
    public var autoCancelAt: Date

    public init(callerId: String, memberIds: [String], video: Bool, startedAt: Date, autoCancelAt: Date) {
        self.callerId = callerId
        self.memberIds = memberIds
        self.video = video
        self.startedAt = startedAt
        self.autoCancelAt = autoCancelAt
    }
}
