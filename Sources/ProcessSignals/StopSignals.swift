import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGTERM and SIGINT, from the process's first line to its last: each one asks whoever said
/// what a stop is (`whenStopAsked`) — confab-server's orderly stop, confab-peer's leaving with
/// its report, or a plain exit for the commands that only print something. A stop asked before
/// anyone said is kept for them.
///
/// Why from the first line: handled only from the moment the serving command set up its signal
/// source (confab-peer did the same), a stop sent while the server started either ended it the
/// default way at once (Dispatch parks the main thread in `sigsuspend` open to every signal, so
/// nothing about the other threads' masks held it back), or was lost: the command ignored the
/// signal (`SIG_IGN`) and Dispatch registered the source a moment later, on its own thread, and
/// a SIGTERM in between was gone — the server ran on for good, once in a CI run and in 3 of 150
/// runs here of a SIGTERM at a random moment of the start (no backstop either: that was armed
/// by the stop that never came). Now the signals are held (blocked) before any thread exists,
/// so one sent early stays pending, and the source is registered before anything else runs:
/// from then on Dispatch's own handler takes each one to its signalfd, on whichever thread it
/// lands.
///
/// (`@unchecked Sendable`: the sources are made once, in `init`, and Dispatch's sources are
/// safe to use from any thread; the rest is in the mutex.)
public final class StopSignals: @unchecked Sendable {
    /// The one of the process, started first thing by the program's entry.
    public static let process = StopSignals()

    private static let numbers = [SIGTERM, SIGINT]

    private struct State {
        /// The first stop signal taken, until someone says what a stop is.
        var unanswered: Int32?
        var action: (@Sendable (Int32) -> Void)?
    }

    private let state = Mutex(State())
    private let sources: [any DispatchSourceSignal]

    private init() {
        sources = Self.numbers.map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
    }

    /// Holds the signals pending, then registers the sources and waits until Dispatch has
    /// (`setRegistrationHandler`). To be called first thing, before any thread exists: every
    /// thread inherits the hold, so none can take a signal the default way meanwhile (the
    /// process would end at once).
    public func start() {
#if os(Linux)
        var held = sigset_t()
        sigemptyset(&held)
        for number in Self.numbers { sigaddset(&held, number) }
        pthread_sigmask(SIG_BLOCK, &held, nil)
#endif
        let registered = DispatchGroup()
        for (number, source) in zip(Self.numbers, sources) {
#if canImport(Darwin)
            // kqueue sees the signal anyway; its default action must not end us first.
            signal(number, SIG_IGN)
#endif
            source.setEventHandler { [weak self] in self?.taken(number) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
        }
        registered.wait()
    }

    /// What a stop is from now on: `action` gets the signal's number, at once for a stop asked
    /// before (only the first is kept).
    public func whenStopAsked(_ action: @escaping @Sendable (Int32) -> Void) {
        let unanswered = state.withLock { state in
            state.action = action
            defer { state.unanswered = nil }
            return state.unanswered
        }
        if let unanswered { action(unanswered) }
    }

    /// Ends the process as the signal would have, for commands with nothing to stop in order.
    public static let exitAtOnce: @Sendable (Int32) -> Void = { number in exit(128 + number) }

    private func taken(_ number: Int32) {
        let action = state.withLock { state in
            if state.action == nil, state.unanswered == nil { state.unanswered = number }
            return state.action
        }
        action?(number)
    }
}
