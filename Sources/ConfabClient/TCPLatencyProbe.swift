import ConfabCore
import FoundationEssentials
import NIOCore
import NIOPosix

/// Measures the round-trip time to the call server as the time a TCP handshake takes
/// (SYN → SYN/ACK): one network round trip, with no server work in it.
public struct TCPLatencyProbe: LatencyProbe {
    public let host: String
    public let port: Int
    public let timeout: Duration

    public init(host: String, port: Int, timeout: Duration = .seconds(2)) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    /// A probe for a `ws://host:port` (or `wss://`, `http://`) server address; nil if it has no host.
    public init?(serverURL: String, timeout: Duration = .seconds(2)) {
        guard let components = URLComponents(string: serverURL), let host = components.host, !host.isEmpty else { return nil }
        let defaultPort = (components.scheme == "wss" || components.scheme == "https") ? 443 : 80
        self.init(host: host, port: components.port ?? defaultPort, timeout: timeout)
    }

    public func measureRoundTrip() async -> Duration? {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(milliseconds))
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let channel = try await bootstrap.connect(host: host, port: port).get()
            let elapsed = clock.now - start
            try? await channel.close()
            return elapsed
        } catch {
            return nil
        }
    }
}
