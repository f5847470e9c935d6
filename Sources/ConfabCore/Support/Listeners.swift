/// Several watchers of one stream of values (a participant's video frames, say), each until
/// it lets go. `subscribe` returns the watcher's `Subscription`: the widget or window that
/// shows the values keeps it, and dropping it (or `cancel()`) ends the watch. Nobody clears a
/// shared slot that someone else has meanwhile set, which is what lost the remote video when
/// the call window and the minimized window took turns.
@MainActor
public final class Listeners<Value> {
    private var handlers: [Int: @MainActor (Value) -> Void] = [:]
    private var nextID = 0

    public init() {}

    /// How many watchers there are now (tests prove that owners let go).
    public var count: Int { handlers.count }

    /// Calls `handler` with every value sent from now on, until the subscription goes.
    public func subscribe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
        nextID += 1
        let id = nextID
        handlers[id] = handler
        return Subscription { [weak self] in self?.handlers[id] = nil }
    }

    public func send(_ value: Value) {
        for handler in handlers.values { handler(value) }
    }
}

/// A watch that lasts as long as its owner keeps this token; released or cancelled, it ends.
@MainActor
public final class Subscription {
    private var end: (@MainActor () -> Void)?

    public init(_ end: @escaping @MainActor () -> Void) { self.end = end }

    public func cancel() {
        end?()
        end = nil
    }

    isolated deinit { cancel() }
}
