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
}
