/// A member to add to a call; `role` defaults to `user`.
public struct MemberRequest: Codable, Sendable, Hashable {
    public var userId: String
    public var role: CallRole?

    public init(userId: String, role: CallRole? = nil) {
        self.userId = userId
        self.role = role
    }
}
