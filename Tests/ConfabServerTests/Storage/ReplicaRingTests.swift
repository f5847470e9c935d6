import ConfabProtocol
@testable import ConfabServer
import Foundation
import Logging
import XCTest

/// Two coordinators on one PostgreSQL (issue 17, step 3, its first part): a ring started on
/// one reaches the callee connected to the other, through LISTEN/NOTIFY.
final class ReplicaRingTests: PostgresTestCase {
    private var servers: [TestServer] = []
    private var clients: [TestClient] = []
    private var directories: [URL] = []

    override func tearDown() async throws {
        for client in clients { await client.close() }
        for server in servers { await server.stop() }
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
    }

    /// Two servers (each its own data folder) on one new database.
    private func twoReplicas() async throws -> (TestServer, TestServer) {
        let database = try makeDatabase()
        for _ in 0..<2 {
            let directory = try TestServer.makeTemporaryDirectory()
            directories.append(directory)
            servers.append(try await TestServer.start(directory: directory, database: .postgres(database)))
        }
        return (servers[0], servers[1])
    }

    private func connect(_ userId: String, to server: TestServer) async throws -> TestClient {
        let client = try await server.client(userId)
        clients.append(client)
        return client
    }

    func test_aliceOnReplicaA_ringsBob_bobOnReplicaB_isRung_andCanJoinTheCall() async throws {
        let (a, b) = try await twoReplicas()
        let alice = try await connect("alice", to: a)
        let bob = try await connect("bob", to: b)
        let cid = CallID(type: .default, id: "across")

        _ = try await alice.send(GetOrCreateCallRequest(cid: cid, members: [MemberRequest(userId: "bob")], ring: true, video: true))

        let rung = try await bob.nextEvent(.callRing)
        XCTAssertEqual(rung.ring?.callerId, "alice")
        XCTAssertEqual(rung.ring?.memberIds, ["bob"])
        XCTAssertEqual(rung.ring?.video, true)
        XCTAssertEqual(rung.ring?.call.cid, cid)
        XCTAssertEqual(rung.ring?.call.createdBy, "alice", "B read the call A had just made")
        let joined = try await bob.send(JoinCallRequest(cid: cid))
        XCTAssertEqual(joined.call.members.map(\.userId), ["alice", "bob"])
    }

    func test_memberAddedOnReplicaA_mayJoinOnReplicaB_thatHadTheCallLoadedBefore() async throws {
        // Given a call that B has loaded and keeps (carol follows it there; bob, not yet a member,
        // was refused there)
        let (a, b) = try await twoReplicas()
        let alice = try await connect("alice", to: a)
        let bob = try await connect("bob", to: b)
        let carol = try await connect("carol", to: b)
        let cid = CallID(type: .default, id: "grows")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid, members: [MemberRequest(userId: "carol")]))
        _ = try await carol.send(GetCallRequest(cid: cid))
        let refused = try await bob.sendExpectingError(JoinCallRequest(cid: cid))
        XCTAssertEqual(refused.code, .privateCall)

        // When alice adds bob on A
        _ = try await alice.send(AddMembersRequest(cid: cid, members: [MemberRequest(userId: "bob")]))

        // Then B lets him in (its copy was replaced by the database's), as soon as the notice arrives
        var joined: JoinCallResponse?
        let admitted = await eventually(within: .seconds(5)) {
            joined = try? await bob.send(JoinCallRequest(cid: cid))
            return joined != nil
        }
        XCTAssertTrue(admitted, "B still refuses bob after alice made him a member on A")
        XCTAssertEqual(joined?.call.members.map(\.userId), ["alice", "carol", "bob"])
    }

    func test_bus_deliversOtherReplicasEventsInOrder_andSkipsItsOwn() async throws {
        // Given two buses on one database
        let database = try makeDatabase()
        var quiet = Logger(label: "replica-bus-test")
        quiet.logLevel = .critical
        let storeX = try PostgresCallStore(location: database, logger: quiet)
        let storeY = try PostgresCallStore(location: database, logger: quiet)
        defer { storeX.close(); storeY.close() }
        let x = ReplicaBus(store: storeX, logger: quiet), y = ReplicaBus(store: storeY, logger: quiet)
        defer { x.stop(); y.stop() }
        let (xReceived, toX) = AsyncStream.makeStream(of: ReplicaEvent.self)
        let (yReceived, toY) = AsyncStream.makeStream(of: ReplicaEvent.self)
        await x.start { toX.yield($0) }
        await y.start { toY.yield($0) }
        let cid = CallID(type: .default, id: "bus")
        let first = ReplicaEvent.ring(cid: cid, callerId: "alice", memberIds: ["bob"], targets: ["bob"], video: false)
        let second = ReplicaEvent.ring(cid: cid, callerId: "alice", memberIds: ["bob", "carol"], targets: ["carol"], video: false)

        // When X publishes one event and, once Y has it, Y publishes another
        x.publish(first)
        var atY = yReceived.makeAsyncIterator()
        let yGot = await atY.next()
        XCTAssertEqual(yGot, first)
        y.publish(second)

        // Then X's first delivery is Y's event: its own, sent before, was skipped
        var atX = xReceived.makeAsyncIterator()
        let xGot = await atX.next()
        XCTAssertEqual(xGot, second)
    }
}
