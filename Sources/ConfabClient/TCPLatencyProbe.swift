import ConfabCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Measures the round-trip time to the call server as the time a TCP handshake takes
/// (SYN → SYN/ACK): one network round trip, no server work in it.
public struct TCPLatencyProbe: LatencyProbe {
    public let host: String
    public let port: UInt16
    public let timeout: Duration

    public init(host: String, port: UInt16, timeout: Duration = .seconds(2)) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    /// A probe for a `ws://host:port` (or `wss://`, `http://`) server address; nil if it has no host.
    public init?(serverURL: String, timeout: Duration = .seconds(2)) {
        guard let components = URLComponents(string: serverURL), let host = components.host, !host.isEmpty else { return nil }
        let defaultPort: UInt16 = (components.scheme == "wss" || components.scheme == "https") ? 443 : 80
        self.init(host: host, port: components.port.flatMap { UInt16(exactly: $0) } ?? defaultPort, timeout: timeout)
    }

    public func measureRoundTrip() async -> Duration? {
        let host = host, port = port, timeout = timeout
        // Name lookup and connect block; keep them off the main thread.
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: TCPLatencyProbe.connectTime(host: host, port: port, timeout: timeout))
            }
        }
    }

    private static func connectTime(host: String, port: UInt16, timeout: Duration) -> Duration? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &results) == 0, let first = results else { return nil }
        defer { freeaddrinfo(results) }

        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)

        let clock = ContinuousClock()
        let start = clock.now
        let result = connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen)
        if result != 0 && errno != EINPROGRESS { return nil }
        if result != 0 {
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&poller, 1, milliseconds) == 1 else { return nil }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length) == 0, socketError == 0 else { return nil }
        }
        return clock.now - start
    }
}
