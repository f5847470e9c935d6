import ConfabProtocol
import ConfabTestSupport
import Foundation
import XCTest

/// The built `confab-server` executable, as scripts use it.
final class ServerProcessTests: XCTestCase {
    private var directory: URL!

    override func setUp() async throws {
        directory = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        for server in servers { server.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    private var servers: [ServerBinary] = []

    /// Starts the server and returns the URL from its `listening on` line.
    private func launch(_ arguments: [String]) async throws -> (ServerBinary, String) {
        let server = try await ServerBinary.launch(arguments)
        servers.append(server)
        return (server, server.listeningLine ?? "")
    }

    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = try ServerBinary.executable()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func test_binaryWithPortZero_whenReady_printsListeningLineAndServesClients() async throws {
        let db = directory.appendingPathComponent("server.sqlite").path
        let (_, line) = try await launch(["--host", "127.0.0.1", "--port", "0", "--db", db, "--dev-auth"])
        let prefix = "listening on ws://127.0.0.1:"
        XCTAssertTrue(line.hasPrefix(prefix), line)
        let port = try XCTUnwrap(Int(line.dropFirst(prefix.count)))
        XCTAssertGreaterThan(port, 0)
        let client = try await TestClient.connect(to: "ws://127.0.0.1:\(port)", as: "alice")
        let joined = try await client.send(JoinCallRequest(cid: CallID(type: .default, id: "cli"), create: true))
        XCTAssertEqual(joined.call.createdBy, "alice")
        await client.close()
        XCTAssertTrue(FileManager.default.fileExists(atPath: db))
    }

    func test_tokenCommand_printsTokenThatTheServerAcceptsWhileForgedOnesAreRefused() async throws {
        let db = directory.appendingPathComponent("server.sqlite").path
        let token = try run(["token", "alice", "--db", db])
        XCTAssertEqual(token.split(separator: ".").count, 3, token)
        let secret = directory.appendingPathComponent("server.secret").path
        let attributes = try FileManager.default.attributesOfItem(atPath: secret)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        let (_, line) = try await launch(["--port", "0", "--db", db])
        let url = String(line.dropFirst("listening on ".count))
        let client = try await TestClient.connect(to: url)
        let hello = try await client.send(HelloRequest(token: token))
        XCTAssertEqual(hello.userId, "alice")

        let other = try await TestClient.connect(to: url)
        let tampered = token.dropLast(2) + (token.hasSuffix("AA") ? "BB" : "AA")
        let error = try await other.sendExpectingError(HelloRequest(token: String(tampered)))
        XCTAssertEqual(error.code, .invalidToken)
        let missing = try await other.sendExpectingError(HelloRequest(userId: "alice"))
        XCTAssertEqual(missing.code, .notAuthenticated)
        await client.close()
        await other.close()
    }

    func test_readOnlyDatabase_failsAtStart_namingThePathAndTheFix_neverSayingListening() async throws {
        let db = directory.appendingPathComponent("server.sqlite").path
        // A database made and migrated by a server that could write it.
        let (first, _) = try await launch(["--port", "0", "--db", db, "--dev-auth", "--no-media"])
        first.stop()

        // The folder mounted read-only in a private mount namespace: chmod would not stop root,
        // and tests may run as root. (Unprivileged: a user namespace maps us to root in it.)
        let namespace = geteuid() == 0 ? ["unshare", "--mount"] : ["unshare", "--user", "--map-root-user", "--mount"]
        let readOnly = #"d=$1; shift; mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" && exec "$@""#
        let result = try await ServerBinary.runToExit(
            ["--port", "0", "--db", db, "--dev-auth", "--no-media"],
            launcher: namespace + ["sh", "-c", readOnly, "sh", directory.path])

        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.stdout.contains("listening"), result.stdout)
        XCTAssertTrue(result.stderr.contains(db), result.stderr)
        XCTAssertTrue(result.stderr.contains("writable"), result.stderr)
    }

    /// A SIGTERM that reaches the server before it handles stop signals is kept for its orderly
    /// stop. Before, a stop sent while the server started either ended it the default way at
    /// once (Dispatch parks the main thread open to every signal) or, sent between the server
    /// ignoring the signal and Dispatch registering its source, was lost and left it running
    /// for good (in CI, right after "listening"; here in 3 of 150 starts with a SIGTERM at a
    /// random moment). Neither moment can be hit on demand, so the signal is made pending
    /// before the server's first line: held and raised in the process that then becomes the
    /// server (both survive exec). The old server died of it at once (killed by the signal).
    func test_stopSignalPendingAsTheServerStarts_stopsItInOrder_insteadOfBeingLost() async throws {
        let db = directory.appendingPathComponent("server.sqlite").path
        let result = try await ServerBinary.runToExit(
            ["--host", "127.0.0.1", "--port", "0", "--db", db, "--dev-auth", "--no-media"],
            launcher: ProcessLaunchers.withStopPending, timeout: .seconds(10))

        // Stopped in order: status 0 — not killed by the signal, nor ended by the 15 s backstop (2).
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("not stopped"), result.stderr)
    }
}
