import ConfabTestSupport
import ConfabClient
import ConfabCore
import Foundation
import Logging
import XCTest

/// `wss://` to a real `confab-server --tls-cert --tls-key` whose certificate comes from a CA
/// made for the test (a private CA, as an operator's own would be).
final class CoordinatorClientTLS_Tests: XCTestCase {
    private var directory: URL!
    private var server: ServerProcess?
    private var authority: TestCertificateAuthority!
    private let call = CallID(type: .default, id: "tls-tests")

    override func setUp() async throws {
        directory = try ServerProcess.makeTemporaryDirectory()
        authority = try TestCertificateAuthority(named: "confab", in: directory)
        let certificate = try authority.issueServerCertificate(named: "server")
        server = try await ServerProcess.start(["--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath])
    }

    override func tearDown() async throws {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The server's address by the name its certificate was issued for (TLS needs a name).
    private var secureURL: String { "wss://localhost:\(server?.port ?? 0)/ws" }

    @MainActor
    private func client(trusting trust: ServerTrust, at url: String? = nil) -> CoordinatorClient {
        var options = CoordinatorClient.Options()
        options.clientName = "tls-tests"
        options.serverTrust = trust
        var logger = Logger(label: "tls-tests")
        logger.logLevel = .warning
        return CoordinatorClient(serverURL: url ?? secureURL, userID: "alice", options: options, logger: logger)
    }

    /// alice's connection refused, with the error it was refused with; fails the test (`accepted`
    /// says what went wrong) when it was not.
    @MainActor
    private func refusal(trusting trust: ServerTrust, at url: String? = nil, accepted: String) async throws -> (CallError, CoordinatorClient) {
        let alice = client(trusting: trust, at: url)
        do {
            try await alice.connect()
        } catch let error as CallError {
            return (error, alice)
        }
        XCTFail(accepted)
        throw TestFailure(accepted)
    }

    func test_tlsServer_printsAWssListeningAddress() throws {
        XCTAssertTrue(server?.baseURL.hasPrefix("wss://") ?? false, server?.baseURL ?? "no server")
    }

    func test_certificateFromTheTestCA_connectWithItsCAFile_signsInAndCreatesACall() async throws {
        try await onMain { [self, call] in
            let alice = client(trusting: .certificateAuthorities(file: authority.certificatePath))
            try await alice.connect()
            XCTAssertTrue(alice.isConnected)
            let snapshot = try await alice.getOrCreateCall(call, memberIDs: [], ring: false, video: false)
            XCTAssertEqual(snapshot.id, call)
            XCTAssertEqual(snapshot.createdBy, "alice")
            await alice.disconnect()
        }
    }

    func test_anotherCAsFile_connect_isRefusedSayingTheCertificateIsNotTrusted() async throws {
        let other = try TestCertificateAuthority(named: "other", in: directory)
        try await onMain { [self] in
            let (error, alice) = try await refusal(trusting: .certificateAuthorities(file: other.certificatePath),
                                                   accepted: "signed in to a server whose certificate no trusted CA issued")
            XCTAssertEqual(error.kind, .serverNotTrusted)
            XCTAssertTrue(error.message.contains("certificate is not trusted"), error.message)
            XCTAssertTrue(error.message.contains("--ca-file"), error.message)
            XCTAssertTrue(error.message.contains(secureURL), error.message)
            XCTAssertFalse(alice.isConnected)
        }
    }

    func test_systemTrustStore_connectToAPrivateCAsServer_isRefusedAsNotTrusted() async throws {
        try await onMain { [self] in
            let (error, _) = try await refusal(trusting: .system, accepted: "the system's CAs trusted a certificate from a CA made by the test")
            XCTAssertEqual(error.kind, .serverNotTrusted, error.message)
        }
    }

    func test_certificateForAnotherName_connect_isRefusedAsNotTrusted() async throws {
        let elsewhere = try authority.issueServerCertificate(named: "elsewhere", for: "elsewhere.test")
        let other = try await ServerProcess.start(["--tls-cert", elsewhere.certificatePath, "--tls-key", elsewhere.keyPath])
        defer { other.stop() }
        let url = "wss://localhost:\(other.port)/ws"
        try await onMain { [self] in
            let (error, _) = try await refusal(trusting: .certificateAuthorities(file: authority.certificatePath), at: url,
                                               accepted: "trusted a certificate issued for another name")
            XCTAssertEqual(error.kind, .serverNotTrusted, error.message)
            XCTAssertTrue(error.message.contains("issued for another name"), error.message)
        }
    }

    func test_ipAddressURL_connect_isRefusedSayingTLSNeedsTheName() async throws {
        let url = "wss://127.0.0.1:\(server?.port ?? 0)/ws"
        try await onMain { [self] in
            let (error, _) = try await refusal(trusting: .certificateAuthorities(file: authority.certificatePath), at: url,
                                               accepted: "connected over TLS by IP address")
            XCTAssertEqual(error.kind, .serverNotTrusted, error.message)
            XCTAssertTrue(error.message.contains("not an IP address"), error.message)
        }
    }

    func test_missingCAFile_validate_namesThePath() {
        let path = directory.appendingPathComponent("nowhere.pem").path
        XCTAssertThrowsError(try ServerTrust.certificateAuthorities(file: path).validate()) { error in
            XCTAssertEqual(error as? ServerTrustError, .unreadableCAFile(path: path, reason: "no such file"))
        }
    }
}
