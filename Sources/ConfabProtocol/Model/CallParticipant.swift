import FoundationEssentials

/// One device in a call's current session. A user joined from two devices is two participants
/// with the same `userId` and different `sessionId`s.
public struct CallParticipant: Codable, Sendable, Hashable {
    public var userId: String
    public var sessionId: String
    public var role: CallRole
    public var joinedAt: Date
    /// Set while a host has pinned this participant for everyone.
    public var pinnedAt: Date?
    /// Set while this participant's hand is raised (absent from servers before issue 18).
    public var raisedHand: RaisedHand?
    /// Whether the device's microphone and camera are on, as the device said (at its join and
    /// with `UpdateMediaStateRequest`); nil when it has not said (a device of a build before this).
    public var microphoneOn: Bool?
    public var cameraOn: Bool?

    public init(userId: String, sessionId: String, role: CallRole, joinedAt: Date, pinnedAt: Date? = nil,
                raisedHand: RaisedHand? = nil, microphoneOn: Bool? = nil, cameraOn: Bool? = nil) {
        self.userId = userId
        self.sessionId = sessionId
        self.role = role
        self.joinedAt = joinedAt
        self.pinnedAt = pinnedAt
        self.raisedHand = raisedHand
        self.microphoneOn = microphoneOn
        self.cameraOn = cameraOn
    }
}
