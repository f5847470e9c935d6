import Foundation

/// How fast each device may send the requests that fan out to everyone in the call. Owned by
/// the `CallCoordinator`; a session's entries go with the participant.
struct SessionRateLimits {
    /// Reactions float over tiles on every screen: a flood from one device would cover the
    /// call for everyone.
    var reactions = SessionRateLimiter(burst: 5, window: .seconds(5))
    /// The app tells its views at most four times a second while a window is being resized,
    /// and once more for each joiner: twice that is a client gone wrong, each update an event to
    /// every device in the call. (A refused update is told again with the next change only, so
    /// an honest app must never meet the limit.)
    var videoViews = SessionRateLimiter(burst: 40, window: .seconds(5))
    /// Each change of a microphone or camera is an event to every device in the call.
    /// Push-to-talk toggles the microphone with a key: 40 changes in 5 s is a key held and let
    /// go four times a second.
    var mediaState = SessionRateLimiter(burst: 40, window: .seconds(5))

    mutating func forget(session sessionId: String) {
        reactions.forget(session: sessionId)
        videoViews.forget(session: sessionId)
        mediaState.forget(session: sessionId)
    }
}

/// The times of each session's recent requests of one kind: at most `burst` within any `window`.
struct SessionRateLimiter {
    let burst: Int
    let window: Duration
    private var recent: [String: [ContinuousClock.Instant]] = [:]

    init(burst: Int, window: Duration) {
        self.burst = burst
        self.window = window
    }

    /// True (and counted) when the session may send one more now.
    mutating func allow(session sessionId: String, at now: ContinuousClock.Instant = .now) -> Bool {
        var times = (recent[sessionId] ?? []).filter { now - $0 < window }
        guard times.count < burst else {
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

    /// "at most 5 reactions in 5 seconds: wait a moment"
    func refusal(of what: String) -> String {
        "at most \(burst) \(what) in \(window.components.seconds) seconds: wait a moment"
    }
}
