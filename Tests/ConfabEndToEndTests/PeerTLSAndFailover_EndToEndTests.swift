import ConfabTestSupport
import Foundation
import XCTest

/// `confab-peer` against a server that terminates TLS with a certificate from a private CA
/// (made for the test), and given several server addresses (issue 17).
final class PeerTLSAndFailover_EndToEndTests: XCTestCase {
    private var directory: URL!
    private var servers: [ServerProcess] = []
    private var peers: [PeerProcess] = []

    override func setUp() async throws {
        directory = try ServerProcess.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        for peer in peers { peer.stop() }
        for server in servers { server.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A TLS server and the CA its certificate comes from; its address by the certificate's name.
    private func startTLSServer() async throws -> (url: String, authority: TestCertificateAuthority) {
        let authority = try TestCertificateAuthority(named: "confab", in: directory)
        let certificate = try authority.issueServerCertificate(named: "server")
        let server = try await ServerProcess.start(["--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath])
        servers.append(server)
        return ("wss://localhost:\(server.port)", authority)
    }

    private func peer(_ user: String, server: String, _ arguments: [String]) throws -> PeerProcess {
        let peer = try PeerProcess(user, serverURL: server, directory: directory, arguments)
        peers.append(peer)
        return peer
    }

    func test_peerGivenTheTestCA_joinsACallOverWss() async throws {
        let (url, authority) = try await startTLSServer()
        let alice = try peer("alice", server: url, ["--ca-file", authority.certificatePath, "join", "default:tls", "--create", "--duration", "0.5"])
        let report = try await alice.report()
        XCTAssertEqual(report.stateNames, ["idle", "joining", "inCall", "idle"])
        XCTAssertEqual(report.outcome, "left")
    }

    func test_peerGivenAnotherCA_exitsNonZeroSayingTheCertificateIsNotTrusted() async throws {
        let (url, _) = try await startTLSServer()
        let other = try TestCertificateAuthority(named: "other", in: directory)
        let alice = try peer("alice", server: url, ["--ca-file", other.certificatePath, "join", "default:tls", "--create"])
        let (status, output) = try await alice.exit()
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(output.contains("The server’s certificate is not trusted"), output)
        XCTAssertTrue(output.contains("pass --ca-file"), output)
    }

    func test_peerGivenADeadAndALiveServer_joinsOnTheLiveOne() async throws {
        let live = try await ServerProcess.start()
        servers.append(live)
        let alice = try peer("alice", server: "ws://127.0.0.1:9,\(live.baseURL)", ["join", "default:failover", "--create", "--duration", "0.5"])
        let report = try await alice.report()
        XCTAssertEqual(report.stateNames, ["idle", "joining", "inCall", "idle"])
        XCTAssertEqual(report.outcome, "left")
    }

    func test_peerWaitingForARing_itsServerKilled_movesToTheNextAndIsRungThere() async throws {
        // Each with its own database: bob's membership of the call is made on the second anyway.
        let first = try await ServerProcess.start()
        let second = try await ServerProcess.start()
        servers += [first, second]
        let bob = try peer("bob", server: "\(first.baseURL),\(second.baseURL)", ["answer", "--accept", "--duration", "0.5"])
        try await bob.waitFor("connected as bob")
        first.kill()
        try await bob.waitFor("reconnected to \(second.url)")
        let alice = try peer("alice", server: second.baseURL, ["ring", "default:failover-ring", "--members", "bob", "--duration", "0.5"])
        let callee = try await bob.report()
        let caller = try await alice.report()
        XCTAssertEqual(callee.outcome, "accepted")
        XCTAssertEqual(callee.events("ringing").map(\.user), ["alice"])
        XCTAssertEqual(callee.events("connectionLost").count, 1)
        XCTAssertEqual(caller.outcome, "accepted by bob")
    }
}
