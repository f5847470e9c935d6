import FoundationEssentials

/// A person who can be in a call.
public struct User: Hashable, Sendable, Identifiable, Codable {
    public let id: String
    public let name: String

    public init(id: String, name: String? = nil) {
        self.id = id
        let trimmed = name?.trimmingWhitespace() ?? ""
        self.name = trimmed.isEmpty ? id : trimmed
    }

    /// Up to two letters for the avatar: "Ada Lovelace" → "AL", "bob" → "B".
    public var initials: String {
        let words = name.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" || $0 == "." })
        return String(words.prefix(2).compactMap(\.first)).uppercased()
    }
}

/// A call member: a user and their role in that call ("host", "user", …).
public struct Member: Hashable, Sendable, Codable {
    public let user: User
    public let role: String

    public init(user: User, role: String = "user") {
        self.user = user
        self.role = role
    }
}
