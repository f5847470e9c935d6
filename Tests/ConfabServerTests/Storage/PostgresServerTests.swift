import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// The whole server on PostgreSQL: in process across a restart, and the built binary with
/// `--db postgres://…`, including the start-up errors an operator meets.
final class PostgresServerTests: PostgresTestCase {
    private var directory: URL!
    private var database: PostgresLocation!
    private var binaries: [ServerBinary] = []

    override func setUp() async throws {
        database = try makeDatabase()
        directory = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        for binary in binaries { binary.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    func test_serverRestart_onPostgres_keepsCallsMembersBlockedUsersAndCustomButNotSessions() async throws {
        let cid = CallID(type: .audioRoom, id: "townhall")
        let first = try await TestServer.start(directory: directory, database: .postgres(database))
        let alice = try await first.client("alice")
        _ = try await alice.send(GetOrCreateCallRequest(
            cid: cid, members: [MemberRequest(userId: "bob", role: .admin), MemberRequest(userId: "carol")],
            custom: ["agenda": .array([.string("news"), .number(2)])]))
        _ = try await alice.send(BlockUserRequest(cid: cid, userId: "mallory"))
        _ = try await alice.send(JoinCallRequest(cid: cid))
        let before = try await alice.send(GetCallRequest(cid: cid)).call
        await alice.close()
        await first.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("server.sqlite").path),
                       "nothing went to SQLite")

        let second = try await TestServer.start(directory: directory, database: .postgres(database))
        let aliceAgain = try await second.client("alice")
        let after = try await aliceAgain.send(GetCallRequest(cid: cid)).call
        XCTAssertEqual(after.members, before.members)
        XCTAssertEqual(after.members.map(\.role), [.host, .admin, .user])
        XCTAssertEqual(after.blockedUsers, ["mallory"])
        XCTAssertEqual(after.custom, before.custom)
        XCTAssertEqual(after.session.participants, [], "sessions are runtime state")
        let mallory = try await second.client("mallory")
        let refused = try await mallory.sendExpectingError(JoinCallRequest(cid: cid))
        XCTAssertEqual(refused.code, .blockedFromCall)
        await aliceAgain.close()
        await mallory.close()
        await second.stop()
    }

    func test_binaryWithPostgresURL_listensServesAndKeepsTheCallInPostgres() async throws {
        let server = try await ServerBinary.launch([
            "--port", "0", "--dev-auth", "--no-media", "--data-dir", directory.path, "--db", database.description,
        ])
        binaries.append(server)
        let line = try XCTUnwrap(server.listeningLine)
        let port = try XCTUnwrap(line.split(separator: ":").last.flatMap { Int($0) }, line)
        let client = try await TestClient.connect(to: "ws://127.0.0.1:\(port)", as: "alice")
        _ = try await client.send(JoinCallRequest(cid: CallID(type: .default, id: "cli"), create: true))
        await client.close()

        let stored = try cluster().psql(database.database, "SELECT created_by FROM calls WHERE cid = 'default:cli'")
        XCTAssertEqual(stored, "alice")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("server.secret").path),
                      "secrets go to --data-dir")
    }

    func test_ready_whenItsPostgresStops_is503DatabaseDown_andMetricsSayDatabaseDown() async throws {
        // Given a server on a PostgreSQL of its own (stopping the shared one would end the other tests' databases)
        let ownPostgres = try TestPostgres.start()
        defer { ownPostgres.stop() }
        let server = try await TestServer.start(directory: directory, database: .postgres(try ownPostgres.makeDatabase()))
        let ready = try await HTTPGet.fetch("http://127.0.0.1:\(server.port)/ready")
        XCTAssertEqual(ready.status, 200)

        // When PostgreSQL stops
        ownPostgres.stop()

        // Then the server says it cannot serve, and why
        let notReady = try await HTTPGet.fetch("http://127.0.0.1:\(server.port)/ready")
        XCTAssertEqual(notReady.status, 503)
        XCTAssertEqual(try ConfabJSON.decoder().decode(ReadinessStatus.self, from: notReady.body),
                       ReadinessStatus(database: .down, janus: .notChecked))
        let metrics = try await Metrics.fetch(port: server.port)
        XCTAssertEqual(metrics["confab_database_up"], 0)
        let health = try await HTTPGet.fetch("http://127.0.0.1:\(server.port)/health")
        XCTAssertEqual(health.status, 200, "the process itself still answers")
        await server.stop()
    }

    func test_binary_postgresNotRunningThere_failsAtStart_namingTheSocketAndWhatToDo_neverListening() async throws {
        let socketFolder = "/tmp/confab-no-postgres-\(UUID().uuidString.prefix(8))"
        let result = try await ServerBinary.runToExit([
            "--port", "0", "--dev-auth", "--no-media", "--data-dir", directory.path, "--db", "postgres://confab@/confab?host=\(socketFolder)",
        ])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.stdout.contains("listening"), result.stdout)
        XCTAssertTrue(result.stderr.contains("\(socketFolder)/.s.PGSQL.5432"), result.stderr)
        XCTAssertTrue(result.stderr.contains("PostgreSQL is running"), result.stderr)
    }

    func test_binary_malformedPostgresURL_isRefusedBeforeStarting_withWhatIsWrong_andNoPassword() async throws {
        let result = try await ServerBinary.runToExit([
            "--port", "0", "--dev-auth", "--no-media", "--data-dir", directory.path,
            "--db", "postgres://confab:hunter2@db.example/confab?sslmode=sometimes",
        ])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.stdout.contains("listening"), result.stdout)
        XCTAssertTrue(result.stderr.contains("sslmode 'sometimes'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("verify-full"), "the accepted values: \(result.stderr)")
        XCTAssertFalse(result.stderr.contains("hunter2"), "the password is never printed: \(result.stderr)")
    }
}
