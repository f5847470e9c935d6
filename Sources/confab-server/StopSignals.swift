import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGTERM and SIGINT into one call of `stop`, instead of the default of dying on the spot.
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(stop: @escaping @Sendable () -> Void) {
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }

    /// Ends the process if the orderly stop has not ended it within `seconds`. An orderly stop
    /// takes well under a second (Janus gets 3 s before SIGKILL); once, in CI, a server told to
    /// stop right after saying "listening" never did — its task never ended, the process idled
    /// for good, and the test that stopped it waited for ever. The children it started get
    /// their parent-death signal (`ChildProcess`), so none outlives it either way.
    static func exitUnlessStopped(within seconds: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
            let message = "confab-server: not stopped \(seconds) s after the signal; exiting\n"
            message.withCString { _ = write(STDERR_FILENO, $0, strlen($0)) }
            exit(2)
        }
    }
}
