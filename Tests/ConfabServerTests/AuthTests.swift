import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// A server that requires tokens (no --dev-auth).
final class AuthTests: ServerTestCase {
    override var devAuth: Bool { false }

    private func serverToken(for userId: String, lifetime: TimeInterval? = nil) async throws -> String {
        try await TokenAuthority.loadingSecret(at: server.configuration.secretPath).token(for: userId, lifetime: lifetime)
    }

    func test_tokenServer_helloWithValidToken_authenticatesTheTokensUser() async throws {
        let client = try await connectAnonymously()
        let response = try await client.send(HelloRequest(token: try await serverToken(for: "alice")))
        XCTAssertEqual(response.userId, "alice")
        XCTAssertEqual(response.protocolVersion, ProtocolVersion.current)
        XCTAssertFalse(response.connectionId.isEmpty)
    }

    func test_tokenServer_helloWithTokenSignedByAnotherSecret_isRefusedAsInvalidToken() async throws {
        let forger = await TokenAuthority(secret: Array("not the server's secret, 32 bytes".utf8))
        let client = try await connectAnonymously()
        let error = try await client.sendExpectingError(HelloRequest(token: try await forger.token(for: "alice")))
        XCTAssertEqual(error.code, .invalidToken)
        // Still refused afterwards: the forged hello authenticated nothing.
        let next = try await client.sendExpectingError(GetCallRequest(cid: cid("default:x")))
        XCTAssertEqual(next.code, .notAuthenticated)
    }

    func test_tokenServer_helloWithGarbageToken_isRefusedAsInvalidToken() async throws {
        let client = try await connectAnonymously()
        let error = try await client.sendExpectingError(HelloRequest(token: "not.a.jwt"))
        XCTAssertEqual(error.code, .invalidToken)
    }

    func test_tokenServer_helloWithExpiredToken_isRefusedAsInvalidToken() async throws {
        let client = try await connectAnonymously()
        let error = try await client.sendExpectingError(HelloRequest(token: try await serverToken(for: "alice", lifetime: -60)))
        XCTAssertEqual(error.code, .invalidToken)
    }

    func test_tokenServer_helloWithoutToken_isRefusedAsNotAuthenticated() async throws {
        let client = try await connectAnonymously()
        let error = try await client.sendExpectingError(HelloRequest(userId: "alice"))
        XCTAssertEqual(error.code, .notAuthenticated)
        XCTAssertTrue(error.message.contains("token"), error.message)
    }

    func test_tokenServer_tokenForOneUserClaimingAnother_isRefused() async throws {
        let client = try await connectAnonymously()
        let error = try await client.sendExpectingError(HelloRequest(token: try await serverToken(for: "alice"), userId: "mallory"))
        XCTAssertEqual(error.code, .invalidToken)
    }

    func test_unauthenticatedConnection_anyRequestBeforeHello_isRefusedAsNotAuthenticated() async throws {
        let client = try await connectAnonymously()
        let error = try await client.sendExpectingError(GetOrCreateCallRequest(cid: cid("default:standup")))
        XCTAssertEqual(error.code, .notAuthenticated)
    }

    func test_helloWithAnotherProtocolVersion_isRefusedNamingBothVersions() async throws {
        let client = try await connectAnonymously()
        let error = try await client.sendExpectingError(HelloRequest(protocolVersion: 99, token: try await serverToken(for: "alice")))
        XCTAssertEqual(error.code, .unsupportedProtocolVersion)
        XCTAssertTrue(error.message.contains("99"), error.message)
    }

    func test_authenticatedConnection_secondHello_isRefusedAsAlreadyAuthenticated() async throws {
        let client = try await connectAnonymously()
        _ = try await client.send(HelloRequest(token: try await serverToken(for: "alice")))
        let error = try await client.sendExpectingError(HelloRequest(token: try await serverToken(for: "bob")))
        XCTAssertEqual(error.code, .alreadyAuthenticated)
    }

    func test_secretFile_createdOnFirstUse_isReadableByOwnerOnly() throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: server.configuration.secretPath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }
}

final class DevAuthTests: ServerTestCase {
    func test_devAuthServer_helloWithBareUserId_authenticatesThatUser() async throws {
        let client = try await connectAnonymously()
        let response = try await client.send(HelloRequest(userId: "alice"))
        XCTAssertEqual(response.userId, "alice")
    }

    func test_devAuthServer_helloWithInvalidUserId_isRefusedNamingTheRule() async throws {
        let client = try await connectAnonymously()
        let error = try await client.sendExpectingError(HelloRequest(userId: "no spaces please"))
        XCTAssertEqual(error.code, .invalidRequest)
        XCTAssertTrue(error.message.contains("user id"), error.message)
    }

    func test_devAuthServer_helloWithForgedToken_isStillRefused() async throws {
        let forger = await TokenAuthority(secret: Array("not the server's secret, 32 bytes".utf8))
        let client = try await connectAnonymously()
        let error = try await client.sendExpectingError(HelloRequest(token: try await forger.token(for: "alice"), userId: "alice"))
        XCTAssertEqual(error.code, .invalidToken)
    }
}
