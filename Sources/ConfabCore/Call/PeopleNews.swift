import FoundationEssentials

/// People coming into a call (or leaving it) within moments of each other, told as one message
/// that grows — "carol, dave and erin joined" — rather than a toast each: five people joining a
/// meeting at once queued five toasts, which went on being shown one after the other for half a
/// minute after everyone had come.
struct PeopleNews {
    enum Event: Sendable { case joined, left }

    /// As long as a toast stays up (libadwaita's default): someone coming within it is added to
    /// the message shown.
    static let window: TimeInterval = 5

    let event: Event
    private var names: [String] = []
    private var lastAt: Date?

    init(_ event: Event) { self.event = event }

    /// Adds `name`; returns the message to show, and whether it grows the one shown for the
    /// last name (which it then replaces) rather than being news of its own.
    mutating func add(_ name: String, at now: Date = Date()) -> (message: String, grows: Bool) {
        let grows = lastAt.map { now.timeIntervalSince($0) < Self.window } ?? false
        if !grows { names = [] }
        names.append(name)
        lastAt = now
        return (Self.message(names, event), grows)
    }

    /// "bob joined", "bob and carol joined", "bob, carol and dave joined", "bob, carol and 3
    /// others joined" (the first two named: a toast has one line).
    static func message(_ names: [String], _ event: Event) -> String {
        switch (names.count, event) {
        case (0, _): ""
        case (1, .joined): tr("%@ joined", names[0])
        case (1, .left): tr("%@ left", names[0])
        case (2, .joined): tr("%@ and %@ joined", names[0], names[1])
        case (2, .left): tr("%@ and %@ left", names[0], names[1])
        case (3, .joined): tr("%@, %@ and %@ joined", names[0], names[1], names[2])
        case (3, .left): tr("%@, %@ and %@ left", names[0], names[1], names[2])
        case (_, .joined): tr("%@, %@ and %@ others joined", names[0], names[1], String(names.count - 2))
        case (_, .left): tr("%@, %@ and %@ others left", names[0], names[1], String(names.count - 2))
        }
    }
}
