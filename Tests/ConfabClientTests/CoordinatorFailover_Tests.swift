import ConfabTestSupport
import ConfabClient
import ConfabCore
import Foundation
import Logging
import XCTest

/// Several coordinator addresses (`--server a,b`): the client signs in to one that answers and
/// moves on to another when the one it uses dies (issue 17).
final class CoordinatorFailover_Tests: XCTestCase {
    private var servers: [ServerProcess] = []
    private let call = CallID(type: .default, id: "failover-tests")
    /// Nothing listens on the discard port on loopback: connecting there is refused at once.
    private let deadURL = "ws://127.0.0.1:9/ws"

    override func tearDown() async throws {
        for server in servers { server.stop() }
        servers.removeAll()
    }

    private func startServer() async throws -> ServerProcess {
        let server = try await ServerProcess.start()
        servers.append(server)
        return server
    }

    @MainActor
    private func client(_ servers: String) throws -> (CoordinatorClient, EventRecorder) {
        var options = CoordinatorClient.Options()
        options.clientName = "failover-tests"
        options.reconnectBackoff = ReconnectBackoff(initial: .milliseconds(100), maximum: .milliseconds(500))
        var logger = Logger(label: "failover-tests")
        logger.logLevel = .warning
        let client = CoordinatorClient(servers: try ServerEndpoints(parsing: servers), userID: "alice", options: options, logger: logger)
        return (client, EventRecorder(client))
    }

    func test_firstAddressDead_connect_signsInToTheNextOne() async throws {
        let live = try await startServer()
        try await onMain { [self, call] in
            let (alice, _) = try client("\(deadURL),\(live.url)")
            try await alice.connect()
            XCTAssertTrue(alice.isConnected)
            XCTAssertEqual(alice.serverURL, live.url)
            _ = try await alice.getOrCreateCall(call, memberIDs: [], ring: false, video: false)
            await alice.disconnect()
        }
    }

    func test_everyAddressDead_connect_throwsUnreachable() async throws {
        try await onMain { [self] in
            let (alice, _) = try client("\(deadURL),ws://127.0.0.1:7/ws")
            do {
                try await alice.connect()
                XCTFail("connected to nothing")
            } catch let error as CallError {
                XCTAssertTrue(error.message.contains("Couldn’t reach the call server"), error.message)
                XCTAssertEqual(error.kind, .other)
            }
            XCTAssertFalse(alice.isConnected)
        }
    }

    func test_replicaInUseKilled_reconnection_movesToTheNextReplica() async throws {
        let first = try await startServer()
        let second = try await startServer()
        try await onMain { [self, call] in
            let (alice, events) = try client("\(first.url),\(second.url)")
            try await alice.connect()
            XCTAssertEqual(alice.serverURL, first.url)
            first.kill()
            try await events.next("connection lost") { $0 == .connectionLost }
            try await events.next("connection restored", timeout: .seconds(10)) { $0 == .connectionRestored }
            XCTAssertTrue(alice.isConnected)
            XCTAssertEqual(alice.serverURL, second.url)
            // Signed in for real on the second one: it answers requests.
            let snapshot = try await alice.getOrCreateCall(call, memberIDs: [], ring: false, video: false)
            XCTAssertEqual(snapshot.id, call)
            await alice.disconnect()
        }
    }
}
