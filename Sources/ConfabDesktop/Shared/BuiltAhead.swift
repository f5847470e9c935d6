import GLibBridge

/// Something built ahead of the moment it is needed, when the main loop has nothing more urgent
/// to do: the call page, built while the lobby shows, so that joining binds a page instead of
/// building one between the click and the first frame (40–50 ms of widgets on an idle machine,
/// 0.3–0.7 s for the fourth app of bench-media's N = 4 call).
///
/// One at most is kept. A `take` that comes before it was built builds it then, as before.
@MainActor
final class BuiltAhead<Thing: AnyObject> {
    private let build: @MainActor () -> Thing
    private let drop: @MainActor (Thing) -> Void
    private var built: Thing?
    /// Counts `take`s and `discard`s: a build asked for before one of them is not wanted any more.
    private var generation = 0
    /// The screen that asked last (a lobby, a ring): only its closing discards.
    private var owner: ObjectIdentifier?

    /// - Parameters:
    ///   - build: makes one.
    ///   - drop: ends one that was built and is not wanted after all (`discard`).
    init(build: @escaping @MainActor () -> Thing, drop: @escaping @MainActor (Thing) -> Void) {
        self.build = build
        self.drop = drop
    }

    /// Builds one in `seconds`, once the loop is idle (input, layout and painting go first),
    /// and tells `done`; nothing if one is built by then, or was taken or discarded since.
    /// `owner` is the screen it is for: its `discard` calls it off.
    func prepare(in seconds: Double, for owner: AnyObject, done: @escaping @MainActor () -> Void = {}) {
        self.owner = ObjectIdentifier(owner)
        let asked = generation
        MainLoop.whenIdle(after: seconds) { [weak self] in
            guard let self, self.generation == asked, self.built == nil else { return }
            self.built = self.build()
            done()
        }
    }

    /// The one built ahead, or one built now.
    func take() -> Thing {
        generation += 1
        owner = nil
        defer { built = nil }
        return built ?? build()
    }

    /// `owner` closed without a join: the one built goes, and any build asked for is called off
    /// — unless a join took it or another screen has asked since (a lobby replaced by another
    /// keeps what was built for both).
    func discard(for owner: AnyObject) {
        guard self.owner == ObjectIdentifier(owner) else { return }
        self.owner = nil
        generation += 1
        built.map(drop)
        built = nil
    }

    /// Whether one is built and waiting.
    var isReady: Bool { built != nil }
}
