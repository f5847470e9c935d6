/// How long to wait before each reconnection attempt: doubling from `initial` up to `maximum`,
/// with jitter so that many clients dropped by one server restart do not return in lockstep.
public struct ReconnectBackoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration
    /// Up to this fraction of the delay is added at random.
    public var jitter: Double

    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(5), jitter: Double = 0.2) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The wait before the attempt that follows `failures` failed attempts (0 → `initial`).
    public func delay(afterFailures failures: Int, random: Double = Double.random(in: 0...1)) -> Duration {
        var delay = initial
        for _ in 0..<min(max(failures, 0), 32) where delay < maximum { delay *= 2 }
        delay = min(delay, maximum)
        return delay + delay * (jitter * min(max(random, 0), 1))
    }
}
