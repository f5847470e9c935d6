import FoundationEssentials

/// Someone waiting to be let into a call that asks to join (`CallState.askToJoin`).
public struct CallKnock: Codable, Sendable, Hashable {
    public var userId: String
    public var knockedAt: Date

    public init(userId: String, knockedAt: Date) {
        self.userId = userId
        self.knockedAt = knockedAt
    }
}
