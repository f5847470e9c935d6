import Foundation

/// How many reactions a device may send: `burst` within any `window`. Reactions float over
/// tiles on every screen, so a flood from one device would cover the call for everyone.
enum ReactionRules {
    static let burst = 5
    static let window: Duration = .seconds(5)
}

/// The times of each session's recent reactions, for `ReactionRules`. Owned by the
/// `CallCoordinator`; a session's entry goes with the participant.
struct ReactionLimiter {
    private var recent: [String: [ContinuousClock.Instant]] = [:]

    /// True (and counted) when the session may send one more reaction now.
    mutating func allow(session sessionId: String, at now: ContinuousClock.Instant = .now) -> Bool {
        var times = (recent[sessionId] ?? []).filter { now - $0 < ReactionRules.window }
        guard times.count < ReactionRules.burst else {
            recent[sessionId] = times
            return false
        }
        times.append(now)
        recent[sessionId] = times
        return true
    }

    mutating func forget(session sessionId: String) {
        recent[sessionId] = nil
    }
}
