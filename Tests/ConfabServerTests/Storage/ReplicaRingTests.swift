import ConfabProtocol
@testable import ConfabServer
import Foundation
import Logging
import XCTest

/// Two coordinators on one PostgreSQL act as one (issue 17): rings, their answers, joins and
/// leaves, chat, pins, mutes and kicks cross from one to the other through LISTEN/NOTIFY, and a
/// replica that stops answering takes its participants with it.
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

    /// A replica in this process and one as a process of its own (to freeze), on one new database.
    private func replicaAndProcess(_ processArguments: [String] = []) async throws -> (TestServer, ServerBinary) {
        let database = try makeDatabase()
        let directory = try TestServer.makeTemporaryDirectory()
        directories.append(directory)
        let inProcess = try await TestServer.start(directory: directory, database: .postgres(database))
        servers.append(inProcess)
        let process = try await ServerBinary.launch(["--port", "0", "--dev-auth", "--no-media", "--db", database.description,
                                                     "--data-dir", directory.appendingPathComponent("process").path] + processArguments)
        return (inProcess, process)
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

    func test_bobOnB_acceptsAlicesRingFromA_aliceHearsIt_andEachSeesTheOtherInTheCall() async throws {
        // Given alice on A in a call she rang bob into, bob on B rung
        let (a, b) = try await twoReplicas()
        let alice = try await connect("alice", to: a)
        let bob = try await connect("bob", to: b)
        let cid = CallID(type: .default, id: "answered")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid, members: [MemberRequest(userId: "bob")], ring: true, video: true))
        let aliceJoined = try await alice.send(JoinCallRequest(cid: cid))
        _ = try await bob.nextEvent(.callRing)

        // When bob accepts on B (the ring is A's) and joins there
        let accepted = try await bob.send(AcceptCallRequest(cid: cid))
        XCTAssertEqual(accepted.call.cid, cid)
        let heard = try await alice.nextEvent(.callAccepted)
        XCTAssertEqual(heard.accepted?.userId, "bob")
        let bobJoined = try await bob.send(JoinCallRequest(cid: cid))

        // Then each replica's view of the call has both of them
        XCTAssertEqual(Set(bobJoined.call.session.participants.map(\.userId)), ["alice", "bob"],
                       "B's answer to bob's join has alice, who is connected to A")
        let joinedEvent = try await alice.nextEvent(.participantJoined) { $0.joined?.participant.userId != "alice" }
        XCTAssertEqual(joinedEvent.joined?.participant.userId, "bob")
        XCTAssertEqual(joinedEvent.joined?.participant.sessionId, bobJoined.sessionId)
        let seenByAlice = try await alice.send(GetCallRequest(cid: cid))
        XCTAssertEqual(Set(seenByAlice.call.session.participants.map(\.sessionId)), [aliceJoined.sessionId, bobJoined.sessionId])
        XCTAssertEqual(seenByAlice.call.session.acceptedBy.keys.sorted(), ["bob"], "A recorded bob's answer given on B")
        XCTAssertNil(seenByAlice.call.session.ringing, "the ring is over on A too")

        // And when bob leaves on B, alice hears it on A
        _ = try await bob.send(LeaveCallRequest(cid: cid))
        let left = try await alice.nextEvent(.participantLeft)
        XCTAssertEqual(left.left?.participant.userId, "bob")
        XCTAssertEqual(left.left?.reason, .left)
        let afterLeave = try await alice.send(GetCallRequest(cid: cid))
        XCTAssertEqual(afterLeave.call.session.participants.map(\.userId), ["alice"])
    }

    func test_chatPinMuteAndKick_byAliceOnA_reachBobOnB_andHoldThere() async throws {
        // Given alice (the call's creator, a host) on A and bob on B in one call
        let (a, b) = try await twoReplicas()
        let alice = try await connect("alice", to: a)
        let bob = try await connect("bob", to: b)
        let cid = CallID(type: .default, id: "moderated")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid, members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid))
        let bobJoined = try await bob.send(JoinCallRequest(cid: cid))
        _ = try await alice.nextEvent(.participantJoined) { $0.joined?.participant.userId == "bob" }

        // Chat both ways
        _ = try await alice.send(SendChatMessageRequest(cid: cid, text: "hello from A"))
        let chat = try await bob.nextEvent(.chatMessage)
        XCTAssertEqual(chat.chat?.text, "hello from A")
        _ = try await bob.send(SendChatMessageRequest(cid: cid, text: "hello from B"))
        let reply = try await alice.nextEvent(.chatMessage) { $0.chat?.userId == "bob" }
        XCTAssertEqual(reply.chat?.text, "hello from B")

        // A pin by alice of bob, who is on B: bob hears it and B's view of him is pinned
        _ = try await alice.send(PinForEveryoneRequest(cid: cid, userId: "bob", sessionId: bobJoined.sessionId))
        let pinned = try await bob.nextEvent(.pinned)
        XCTAssertEqual(pinned.pin?.sessionId, bobJoined.sessionId)
        let seenOnB = try await bob.send(GetCallRequest(cid: cid))
        XCTAssertNotNil(seenOnB.call.session.participants.first { $0.userId == "bob" }?.pinnedAt)

        // A mute is relayed
        _ = try await alice.send(MuteUsersRequest(cid: cid, userIds: ["bob"], audio: true))
        let muted = try await bob.nextEvent(.usersMuted)
        XCTAssertEqual(muted.muted?.userIds, ["bob"])
        // and bob's device, on B, says his microphone is off: alice on A hears it, and A keeps it
        _ = try await bob.send(UpdateMediaStateRequest(cid: cid, microphoneOn: false))
        let microphone = try await alice.nextEvent(.mediaStateChanged)
        XCTAssertEqual(microphone.mediaState, MediaStateEvent(cid: cid, userId: "bob", sessionId: bobJoined.sessionId, microphoneOn: false, cameraOn: nil))
        let keptOnA = await eventually(within: .seconds(5)) {
            let seen = try? await alice.send(GetCallRequest(cid: cid))
            return seen?.call.session.participants.first { $0.userId == "bob" }?.microphoneOn == false
        }
        XCTAssertTrue(keptOnA, "A does not know bob's microphone is off")

        // A kick takes bob out on B, where he is connected
        _ = try await alice.send(KickUserRequest(cid: cid, userId: "bob"))
        let kicked = try await bob.nextEvent(.userKicked)
        XCTAssertEqual(kicked.kicked?.userId, "bob")
        let gone = await eventually(within: .seconds(5)) {
            let seen = try? await bob.send(GetCallRequest(cid: cid))
            return seen.map { !$0.call.session.participants.contains { $0.userId == "bob" } } ?? false
        }
        XCTAssertTrue(gone, "B still counts bob in the call after alice kicked him on A")
    }

    func test_replicaThatStopsAnswering_itsParticipantsLeaveTheCallOnTheOthers() async throws {
        // Given alice on A and bob on a replica process B in one call
        let (a, b) = try await replicaAndProcess()
        defer { b.stop() }
        let alice = try await connect("alice", to: a)
        let bob = try await TestClient.connect(to: b.url, as: "bob")
        clients.append(bob)
        let cid = CallID(type: .default, id: "deserted")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid, members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid))
        _ = try await bob.send(JoinCallRequest(cid: cid))
        _ = try await alice.nextEvent(.participantJoined) { $0.joined?.participant.userId == "bob" }

        // When B freezes (as a hung or cut-off machine: its sockets stay open, it says nothing)
        let frozenAt = ContinuousClock.now
        _ = Foundation.kill(b.pid, SIGSTOP)
        defer { _ = Foundation.kill(b.pid, SIGCONT) }

        // Then alice hears bob leave, as a lost connection, within the replica timeout
        let left = try await alice.nextEvent(.participantLeft, timeout: .seconds(15))
        XCTAssertEqual(left.left?.participant.userId, "bob")
        XCTAssertEqual(left.left?.reason, .disconnected)
        print("bob left alice's call \(ContinuousClock.now - frozenAt) after his replica froze")
        let seen = try await alice.send(GetCallRequest(cid: cid))
        XCTAssertEqual(seen.call.session.participants.map(\.userId), ["alice"])
    }

    func test_ringFromAReplicaThatDies_stillTimesOutForTheCalleeOnAnother() async throws {
        // Given alice on a replica process A (rings time out after 2 s) ringing bob, who is on B
        let (b, a) = try await replicaAndProcess(["--ring-timeout", "2"])
        defer { a.stop() }
        let alice = try await TestClient.connect(to: a.url, as: "alice")
        clients.append(alice)
        let bob = try await connect("bob", to: b)
        let cid = CallID(type: .default, id: "orphaned-ring")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid, members: [MemberRequest(userId: "bob")], ring: true))
        _ = try await bob.nextEvent(.callRing)

        // When A freezes before the ring times out
        _ = Foundation.kill(a.pid, SIGSTOP)
        defer { _ = Foundation.kill(a.pid, SIGCONT) }

        // Then B, once A is taken for dead, misses the ring for bob and ends the call
        let missed = try await bob.nextEvent(.callMissed, timeout: .seconds(15))
        XCTAssertEqual(missed.missed?.userIds, ["bob"])
        let ended = try await bob.nextEvent(.callEnded, timeout: .seconds(5))
        XCTAssertEqual(ended.ended?.reason, .timedOut)
        let seen = try await bob.send(GetCallRequest(cid: cid))
        XCTAssertNotNil(seen.call.endedAt)
        XCTAssertNil(seen.call.session.ringing)
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
        await x.start { toX.yield($0.event) }
        await y.start { toY.yield($0.event) }
        let cid = CallID(type: .default, id: "bus")
        let first = ReplicaEvent.ring(cid: cid, callerId: "alice", memberIds: ["bob"], targets: ["bob"], video: false, timeout: 10)
        let second = ReplicaEvent.ring(cid: cid, callerId: "alice", memberIds: ["bob", "carol"], targets: ["carol"], video: false, timeout: 10)

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
