import ConfabClient
import ConfabCore
import Foundation
import XCTest

final class TCPLatencyProbe_Tests: XCTestCase {
    func test_listeningServer_measuresARoundTrip() async throws {
        let listener = try LoopbackListener()
        defer { listener.close() }
        let probe = TCPLatencyProbe(host: "127.0.0.1", port: Int(listener.port))
        let roundTrip = await probe.measureRoundTrip()
        XCTAssertNotNil(roundTrip)
        XCTAssertEqual(ConnectionQuality(roundTripTime: roundTrip), .excellent)
    }

    func test_nobodyListening_reportsUnreachable() async throws {
        let listener = try LoopbackListener()
        let port = listener.port
        listener.close()
        let roundTrip = await TCPLatencyProbe(host: "127.0.0.1", port: Int(port)).measureRoundTrip()
        XCTAssertNil(roundTrip)
        XCTAssertEqual(ConnectionQuality(roundTripTime: roundTrip), .poor)
    }

    func test_unknownHost_reportsUnreachable() async {
        let roundTrip = await TCPLatencyProbe(host: "no-such-host.invalid", port: 8630).measureRoundTrip()
        XCTAssertNil(roundTrip)
    }

    func test_serverURL_givesHostAndPort() {
        let probe = TCPLatencyProbe(serverURL: "ws://127.0.0.1:8630")
        XCTAssertEqual(probe?.host, "127.0.0.1")
        XCTAssertEqual(probe?.port, 8630)
        XCTAssertEqual(TCPLatencyProbe(serverURL: "wss://calls.example.org")?.port, 443)
        XCTAssertNil(TCPLatencyProbe(serverURL: "not a url"))
    }
}

/// A real TCP listener on a free loopback port.
final class LoopbackListener {
    let port: UInt16
    private var fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        self.fd = fd
    }

    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }
}
