/// A member's role in one call. The creator of a call is its `host`.
public enum CallRole: String, Codable, Sendable, CaseIterable {
    case admin, host, user
}
