import ConfabProtocol
import ConfabServer
import Foundation
import Logging
import XCTest

/// An in-process confab-server on a free loopback port with a temporary database; without
/// media unless a test asks for Janus.
final class TestServer: Sendable {
    let configuration: ServerConfiguration
    let url: String
    let port: Int
    private let task: Task<Void, any Error>

    /// Starts a server and waits until it listens. `directory` lets a restart reuse a database;
    /// `database` puts the calls elsewhere than `server.sqlite` in it (PostgreSQL).
    static func start(
        devAuth: Bool = true, openCalls: Bool = false, directory: URL? = nil, ringTimeout: Duration = .seconds(10),
        healthCheckInterval: Duration = .seconds(10), media: MediaConfiguration = .disabled, database: DatabaseLocation? = nil,
        tls: ServerTLS? = nil
    ) async throws -> TestServer {
        let folder = try directory ?? Self.makeTemporaryDirectory()
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, database: database ?? .sqlite(path: folder.appendingPathComponent("server.sqlite").path),
            dataFolder: folder.path, devAuth: devAuth,
            openCalls: openCalls, ringAutoCancelTimeout: ringTimeout, healthCheckInterval: healthCheckInterval, media: media, tls: tls)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "confab-server-test")
        logger.logLevel = .critical
        let server = ConfabServer(configuration: configuration, logger: logger)
        let task = Task {
            defer { continuation.finish() }
            try await server.run { _, port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            _ = try await task.value
            throw TestClient.Failure.unexpected("server stopped before listening")
        }
        return TestServer(configuration: configuration, port: port, task: task)
    }

    private init(configuration: ServerConfiguration, port: Int, task: Task<Void, any Error>) {
        self.configuration = configuration
        self.port = port
        self.url = "ws://127.0.0.1:\(port)/ws"
        self.task = task
    }

    var directory: URL { URL(fileURLWithPath: configuration.dataFolder) }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    /// A client that has said hello as `userId`.
    func client(_ userId: String) async throws -> TestClient {
        try await TestClient.connect(to: url, as: userId)
    }

    static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("confab-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Base class: one fresh server per test, clients closed at the end.
class ServerTestCase: XCTestCase {
    var server: TestServer!
    private var clients: [TestClient] = []

    /// Override to change how the server starts.
    var ringTimeout: Duration { .seconds(10) }
    var healthCheckInterval: Duration { .seconds(10) }
    var devAuth: Bool { true }

    override func setUp() async throws {
        server = try await TestServer.start(devAuth: devAuth, ringTimeout: ringTimeout, healthCheckInterval: healthCheckInterval)
    }

    override func tearDown() async throws {
        for client in clients { await client.close() }
        clients.removeAll()
        await server?.stop()
        if let directory = server?.directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A client said hello as `userId`, closed at tear-down.
    func connect(_ userId: String) async throws -> TestClient {
        let client = try await server.client(userId)
        clients.append(client)
        return client
    }

    /// A client that has not said hello yet, closed at tear-down.
    /// alice (host) and bob (member) both in `default:standup`.
    func callWithAliceAndBobIn() async throws -> (TestClient, TestClient, CallID) {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let call = cid("default:standup")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: call))
        _ = try await bob.send(JoinCallRequest(cid: call))
        return (alice, bob, call)
    }

    func connectAnonymously() async throws -> TestClient {
        let client = try await TestClient.connect(to: server.url)
        clients.append(client)
        return client
    }

    func cid(_ text: String) -> CallID {
        guard let cid = CallID(text) else { preconditionFailure("bad test call id \(text)") }
        return cid
    }
}
