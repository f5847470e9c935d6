import ConfabProtocol
import ConfabServer
import ConfabTestSupport
import Foundation
import XCTest

/// `--tls-cert`/`--tls-key`: the server terminates TLS itself for every route, and refuses to
/// start, naming the file, when it cannot use them.
final class ServerTLSTests: XCTestCase {
    private var directory: URL!
    private var server: TestServer?

    override func setUp() async throws {
        directory = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        await server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// An in-process server with a certificate for localhost from a CA made for the test.
    private func startTLSServer() async throws -> (TestServer, TestCertificateAuthority) {
        let authority = try TestCertificateAuthority(named: "confab", in: directory)
        let certificate = try authority.issueServerCertificate(named: "server")
        let server = try await TestServer.start(
            directory: directory, tls: ServerTLS(certificatePath: certificate.certificatePath, privateKeyPath: certificate.keyPath))
        self.server = server
        return (server, authority)
    }

    func test_tlsServer_healthOverHTTPS_answersToAClientTrustingTheTestCA() async throws {
        let (server, authority) = try await startTLSServer()
        let (status, body) = try await HTTPGet.fetch("https://localhost:\(server.port)/health", caFile: authority.certificatePath)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(try ConfabJSON.decoder().decode(HealthStatus.self, from: body).status, "ok")
    }

    func test_tlsServer_plainHTTP_getsNoHealthAnswer() async throws {
        let (server, _) = try await startTLSServer()
        do {
            let (status, _) = try await HTTPGet.fetch("http://127.0.0.1:\(server.port)/health")
            XCTFail("a TLS server answered plain HTTP with \(status)")
        } catch {
            // Refused: the server expects a TLS handshake, not a request.
        }
    }

    func test_missingCertificateFile_serverStopsNamingIt_beforeListening() async throws {
        let authority = try TestCertificateAuthority(named: "confab", in: directory)
        let certificate = try authority.issueServerCertificate(named: "server")
        let missing = directory.appendingPathComponent("no-such-cert.pem").path
        let (status, stdout, stderr) = try await ServerBinary.runToExit(
            ["--port", "0", "--no-media", "--dev-auth", "--db", directory.appendingPathComponent("server.sqlite").path,
             "--tls-cert", missing, "--tls-key", certificate.keyPath])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(stderr.contains(missing), stderr)
        XCTAssertTrue(stderr.contains("no such file"), stderr)
        XCTAssertFalse(stdout.contains("listening"), stdout)
    }

    func test_keyOfAnotherCertificate_serverStopsNamingBothFiles() async throws {
        let authority = try TestCertificateAuthority(named: "confab", in: directory)
        let certificate = try authority.issueServerCertificate(named: "server")
        let other = try authority.issueServerCertificate(named: "other")
        let (status, stdout, stderr) = try await ServerBinary.runToExit(
            ["--port", "0", "--no-media", "--dev-auth", "--db", directory.appendingPathComponent("server.sqlite").path,
             "--tls-cert", certificate.certificatePath, "--tls-key", other.keyPath])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(stderr.contains(other.keyPath) && stderr.contains(certificate.certificatePath), stderr)
        XCTAssertFalse(stdout.contains("listening"), stdout)
    }

    func test_certificateWithoutKey_isRefusedOnTheCommandLine() async throws {
        let (status, _, stderr) = try await ServerBinary.runToExit(["--no-media", "--tls-cert", "/tmp/x.pem"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(stderr.contains("--tls-cert and --tls-key go together"), stderr)
    }
}
