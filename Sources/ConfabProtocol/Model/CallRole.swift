/// A member's role in one call. The creator of a call is its `host`.
public enum CallRole: String, Codable, Sendable, CaseIterable {
    case admin, host, user
    /// A user a host let speak: in an audio room they may send audio as hosts do, and moderate
    /// nothing; elsewhere the same as `user`. A host gives it (and takes it back, making them a
    /// `user` again) with `addMembers`.
    case speaker
}
