import Foundation

/// Everything about a call as seen by one user (`ownCapabilities` depends on who asks).
public struct CallState: Codable, Sendable, Hashable {
    public var cid: CallID
    public var createdBy: String
    public var createdAt: Date
    public var updatedAt: Date
    public var startsAt: Date?
    public var endedAt: Date?
    public var backstage: Bool
    public var broadcasting: Bool
    public var recording: Bool
    public var members: [CallMember]
    public var blockedUsers: [String]
    public var custom: [String: JSONValue]
    public var session: CallSession
    public var ownCapabilities: [OwnCapability]

    public init(
        cid: CallID, createdBy: String, createdAt: Date, updatedAt: Date, startsAt: Date?, endedAt: Date?,
        backstage: Bool, broadcasting: Bool, recording: Bool, members: [CallMember], blockedUsers: [String],
        custom: [String: JSONValue], session: CallSession, ownCapabilities: [OwnCapability]
    ) {
        self.cid = cid
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.startsAt = startsAt
        self.endedAt = endedAt
        self.backstage = backstage
        self.broadcasting = broadcasting
        self.recording = recording
        self.members = members
        self.blockedUsers = blockedUsers
        self.custom = custom
        self.session = session
        self.ownCapabilities = ownCapabilities
    }
}
