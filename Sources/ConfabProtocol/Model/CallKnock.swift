import Foundation

/// Someone waiting to be let into a call that asks to join (`CallState.askToJoin`).
public struct CallKnock: Codable, Sendable, Hashable {
    public var userId: String
    public var knockedAt: Date

    public init(userId: String, knockedAt: Date) {
        self.userId = userId
        self.knockedAt = knockedAt
    }
}

/// How a knock ended, as hosts are told (`call.knock_resolved`).
public enum KnockOutcome: String, Codable, Sendable {
    case admitted, denied
    /// The knocker went away (disconnected) before anyone answered.
    case withdrawn
}
