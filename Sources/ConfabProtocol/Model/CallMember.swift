import FoundationEssentials

/// A user who belongs to a call (whether or not they are in it right now).
public struct CallMember: Codable, Sendable, Hashable {
    public var userId: String
    public var role: CallRole
    public var createdAt: Date

    public init(userId: String, role: CallRole, createdAt: Date) {
        self.userId = userId
        self.role = role
        self.createdAt = createdAt
    }
}
