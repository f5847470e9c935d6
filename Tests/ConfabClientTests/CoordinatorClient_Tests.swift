import ConfabTestSupport
import ConfabClient
import ConfabCore
import Foundation
import XCTest

/// The client against the real `confab-server` binary in another process.
final class CoordinatorClient_Tests: XCTestCase {
    private var servers: [ServerProcess] = []
    private let call = CallID(type: .default, id: "client-tests")

    override func tearDown() async throws {
        for server in servers { server.stop() }
        servers.removeAll()
    }

    private func startServer(_ arguments: [String] = []) async throws -> ServerProcess {
        let server = try await ServerProcess.start(arguments)
        servers.append(server)
        return server
    }

    @MainActor
    private func client(_ user: String, on server: ServerProcess, configure: (inout CoordinatorClient.Options) -> Void = { _ in })
        async throws -> (CoordinatorClient, EventRecorder)
    {
        let client = CoordinatorClient.forTests(user, on: server, configure: configure)
        let recorder = EventRecorder(client)
        try await client.connect()
        return (client, recorder)
    }

    // MARK: Signing in

    func test_devAuthServer_connect_signsInWithThisDevicesConnectionID() async throws {
        let server = try await startServer()
        try await onMain { [self] in
            let (alice, _) = try await client("alice", on: server)
            XCTAssertTrue(alice.isConnected)
            XCTAssertEqual(alice.currentUserID, "alice")
            XCTAssertFalse(alice.connectionID?.isEmpty ?? true)
            await alice.disconnect()
            XCTAssertFalse(alice.isConnected)
        }
    }

    func test_nothingListening_connect_throwsUnreachableWithTheAddress() async throws {
        try await onMain {
            let client = CoordinatorClient(serverURL: "ws://127.0.0.1:9/ws", userID: "alice")
            do {
                try await client.connect()
                XCTFail("connected to nothing")
            } catch let error as CallError {
                XCTAssertTrue(error.message.contains("ws://127.0.0.1:9/ws"), error.message)
                XCTAssertTrue(error.message.contains("Couldn’t reach the call server"), error.message)
                // Said as a person reads it, not as SwiftNIO's types print ("SingleConnectionFailure(target: …").
                XCTAssertTrue(error.message.contains("nothing answers there (connection refused)"), error.message)
                XCTAssertFalse(error.message.contains("SingleConnectionFailure"), error.message)
            }
            XCTAssertFalse(client.isConnected)
        }
    }

    /// The media server's address refusing the app (a Janus that is down) is told in words
    /// that fit the call's toast ("Couldn’t connect audio and video: …").
    func test_mediaServerRefuses_theReasonIsPlain() async throws {
        try await onMain {
            let session = JanusSession(url: "ws://127.0.0.1:9")
            do {
                try await session.connect()
                XCTFail("connected to nothing")
            } catch {
                let said = "\(error)"
                XCTAssertEqual(said, "the media server at ws://127.0.0.1:9 is unreachable: nothing answers there (connection refused)")
            }
            await session.close()
        }
    }

    func test_neverConnected_request_failsAtOnceWithNotConnected() async throws {
        try await onMain { [call] in
            let client = CoordinatorClient(serverURL: "ws://127.0.0.1:9/ws", userID: "alice")
            let started = ContinuousClock.now
            do {
                _ = try await client.getCall(call)
                XCTFail("a request without a connection succeeded")
            } catch let error as CallError {
                XCTAssertEqual(error, .notConnected)
            }
            XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(100))
        }
    }

    // MARK: Requests and errors

    func test_newCall_getOrCreateCall_returnsTheCallWithMembersAndOwnCapabilities() async throws {
        let server = try await startServer()
        try await onMain { [self, call] in
            let (alice, _) = try await client("alice", on: server)
            let snapshot = try await alice.getOrCreateCall(call, memberIDs: ["bob"], ring: false, video: true)
            XCTAssertEqual(snapshot.id, call)
            XCTAssertEqual(snapshot.createdBy, "alice")
            XCTAssertEqual(Set(snapshot.members.map(\.user.id)), ["alice", "bob"])
            XCTAssertTrue(snapshot.ownCapabilities.contains(.joinCall))
            XCTAssertTrue(snapshot.ownCapabilities.contains(.endCall))
            XCTAssertFalse(snapshot.isEnded)
            await alice.disconnect()
        }
    }

    func test_callInProgress_anotherUserJoins_bothSeeTheParticipantAndTheJoinerGetsASession() async throws {
        let server = try await startServer()
        try await onMain { [self, call] in
            let (alice, aliceEvents) = try await client("alice", on: server)
            let (bob, _) = try await client("bob", on: server)
            _ = try await alice.getOrCreateCall(call, memberIDs: ["bob"], ring: false, video: true)
            _ = try await alice.joinCall(call, settings: .default)
            let joined = try await bob.joinCall(call, settings: .default)
            XCTAssertEqual(Set(joined.participants.map(\.user.id)), ["alice", "bob"])
            XCTAssertNotNil(bob.sessionID(in: call))
            XCTAssertEqual(joined.ownSessionID, bob.sessionID(in: call))
            let event = try await aliceEvents.next("bob joining") {
                if case .participantJoined(_, let participant) = $0 { return participant.user.id == "bob" }
                return false
            }
            guard case .participantJoined(let cid, let participant) = event else { return XCTFail("\(event)") }
            XCTAssertEqual(cid, call)
            XCTAssertEqual(participant.sessionID, bob.sessionID(in: call))

            try await bob.leaveCall(call)
            try await aliceEvents.next("bob leaving") {
                if case .participantLeft(_, let participant, let departure) = $0 { return participant.user.id == "bob" && departure == .left }
                return false
            }
            await alice.disconnect()
            await bob.disconnect()
        }
    }

    func test_privateCall_strangerJoins_isRefusedUntilTheLinkSecretIsUsed() async throws {
        let server = try await startServer()
        try await onMain { [self, call] in
            let (alice, _) = try await client("alice", on: server)
            let (dave, _) = try await client("dave", on: server)
            let created = try await alice.getOrCreateCall(call, memberIDs: [], ring: false, video: true)
            let secret = try XCTUnwrap(created.linkSecret)
            do {
                _ = try await dave.joinCall(call, settings: .default)
                XCTFail("dave joined alice's private call without its link")
            } catch let error as CallError {
                XCTAssertTrue(error.message.contains("private"), error.message)
                XCTAssertTrue(error.message.contains("link"), "the advice should point at the call's link: \(error.message)")
            }

            dave.useLink(secret: secret, for: call)
            let joined = try await dave.joinCall(call, settings: .default)

            XCTAssertEqual(joined.participants.map(\.user.id), ["dave"])
            XCTAssertFalse(joined.members.contains { $0.user.id == "dave" })
            await alice.disconnect()
            await dave.disconnect()
        }
    }

    func test_newCallName_joinFromLobby_createsTheCall() async throws {
        let server = try await startServer()
        try await onMain { [self] in
            let (alice, _) = try await client("alice", on: server)
            let snapshot = try await alice.joinCall(CallID(type: .default, id: "brand-new"), settings: .default)
            XCTAssertEqual(snapshot.id, CallID(type: .default, id: "brand-new"))
            XCTAssertNotNil(snapshot.ownSessionID)
            await alice.disconnect()
        }
    }

    func test_unknownCall_joinWithoutCreate_throwsCallErrorWithTheServersReasonAndAdvice() async throws {
        let server = try await startServer()
        try await onMain { [self] in
            let (alice, _) = try await client("alice", on: server)
            do {
                _ = try await alice.joinCall(CallID(type: .default, id: "nowhere"), create: false)
                XCTFail("joined a call that does not exist")
            } catch let error as CallError {
                XCTAssertTrue(error.message.hasPrefix("Couldn’t join the call:"), error.message)
                XCTAssertTrue(error.message.contains("default:nowhere"), error.message)
                XCTAssertTrue(error.message.contains("Check the call id."), error.message)
            }
            // The connection survives a refused request.
            XCTAssertTrue(alice.isConnected)
            _ = try await alice.getOrCreateCall(CallID(type: .default, id: "somewhere"), memberIDs: [], ring: false, video: false)
            await alice.disconnect()
        }
    }


    // MARK: Ringing

    func test_aliceRingsBob_bobGetsRingingWithCallerVideoAndTimeout_aliceIsNotRung() async throws {
        let server = try await startServer(["--ring-timeout", "20"])
        try await onMain { [self, call] in
            let (alice, aliceEvents) = try await client("alice", on: server)
            let (bob, bobEvents) = try await client("bob", on: server)
            _ = try await alice.getOrCreateCall(call, memberIDs: ["bob"], ring: true, video: true)
            let event = try await bobEvents.next("ringing") { if case .ringing = $0 { true } else { false } }
            guard case .ringing(let incoming) = event else { return XCTFail("\(event)") }
            XCTAssertEqual(incoming.caller.id, "alice")
            XCTAssertEqual(incoming.cid, call)
            XCTAssertTrue(incoming.video)
            XCTAssertEqual(Set(incoming.members.map(\.user.id)), ["alice", "bob"])
            XCTAssertGreaterThan(incoming.timeout, .seconds(15))
            XCTAssertLessThanOrEqual(incoming.timeout, .seconds(20))
            // A round trip on alice's connection: anything sent to her before it has arrived.
            _ = try await alice.getCall(call)
            XCTAssertFalse(aliceEvents.events.contains { if case .ringing = $0 { true } else { false } })
            await alice.disconnect()
            await bob.disconnect()
        }
    }

    func test_bobAccepts_aliceSeesAcceptedByAnotherDevice_bobSeesItAsThisDevice() async throws {
        let server = try await startServer(["--ring-timeout", "20"])
        try await onMain { [self, call] in
            let (alice, aliceEvents) = try await client("alice", on: server)
            let (bob, bobEvents) = try await client("bob", on: server)
            _ = try await alice.getOrCreateCall(call, memberIDs: ["bob"], ring: true, video: false)
            try await bobEvents.next("ringing") { if case .ringing = $0 { true } else { false } }
            try await bob.acceptCall(call)
            let seenByAlice = try await aliceEvents.next("accepted") { if case .accepted = $0 { true } else { false } }
            XCTAssertEqual(seenByAlice, .accepted(call, userID: "bob", byThisDevice: false))
            let seenByBob = try await bobEvents.next("accepted") { if case .accepted = $0 { true } else { false } }
            XCTAssertEqual(seenByBob, .accepted(call, userID: "bob", byThisDevice: true))
            await alice.disconnect()
            await bob.disconnect()
        }
    }

    func test_bobDeclines_aliceSeesRejectedWithReasonThenTheCallEndsUnanswered() async throws {
        let server = try await startServer(["--ring-timeout", "20"])
        try await onMain { [self, call] in
            let (alice, aliceEvents) = try await client("alice", on: server)
            let (bob, bobEvents) = try await client("bob", on: server)
            _ = try await alice.getOrCreateCall(call, memberIDs: ["bob"], ring: true, video: false)
            try await bobEvents.next("ringing") { if case .ringing = $0 { true } else { false } }
            try await bob.rejectCall(call, reason: .decline)
            let rejected = try await aliceEvents.next("rejected") { if case .rejected = $0 { true } else { false } }
            guard case .rejected(let cid, let userID, let reason, let byThisDevice, let snapshot) = rejected else { return XCTFail() }
            XCTAssertEqual(cid, call)
            XCTAssertEqual(userID, "bob")
            XCTAssertEqual(reason, .decline)
            XCTAssertFalse(byThisDevice)
            XCTAssertEqual(snapshot.rejectedBy, ["bob": .decline])
            let ended = try await aliceEvents.next("ended") { if case .ended = $0 { true } else { false } }
            XCTAssertEqual(ended, .ended(call, reason: "Nobody accepted the call"))
            await alice.disconnect()
            await bob.disconnect()
        }
    }

    func test_nobodyAnswers_ringTimesOut_bothSeeMissedAndTheCallEnds() async throws {
        let server = try await startServer(["--ring-timeout", "0.5"])
        try await onMain { [self, call] in
            let (alice, aliceEvents) = try await client("alice", on: server)
            let (bob, bobEvents) = try await client("bob", on: server)
            _ = try await alice.getOrCreateCall(call, memberIDs: ["bob"], ring: true, video: false)
            try await bobEvents.next("missed") { $0 == .missed(call) }
            try await aliceEvents.next("missed") { $0 == .missed(call) }
            try await aliceEvents.next("ended") { $0 == .ended(call, reason: "Nobody answered") }
            await alice.disconnect()
            await bob.disconnect()
        }
    }

    // MARK: Losing the server

    func test_serverKilled_thenRestartedOnTheSamePort_connectionLostOnceThenRestored() async throws {
        let server = try await startServer()
        try await onMain { [self, call] in
            let (alice, events) = try await client("alice", on: server)
            server.kill()
            try await events.next("connection lost") { $0 == .connectionLost }
            XCTAssertFalse(alice.isConnected)
            do {
                _ = try await alice.getCall(call)
                XCTFail("a request succeeded without a server")
            } catch let error as CallError {
                XCTAssertEqual(error, .notConnected)
            }
            try await server.restart()
            try await events.next("connection restored", timeout: .seconds(10)) { $0 == .connectionRestored }
            XCTAssertTrue(alice.isConnected)
            XCTAssertEqual(events.events.filter { $0 == .connectionLost }.count, 1)
            _ = try await alice.getOrCreateCall(call, memberIDs: [], ring: false, video: false)
            await alice.disconnect()
        }
    }

    func test_frozenServer_noHeartbeatForThreeIntervals_connectionLostThenRestoredWhenItWakes() async throws {
        let server = try await startServer(["--health-interval", "0.2"])
        try await onMain { [self] in
            let (alice, events) = try await client("alice", on: server)
            server.freeze()
            // Three 0.2 s intervals without a frame; TCP itself notices nothing.
            try await events.next("connection lost", timeout: .seconds(3)) { $0 == .connectionLost }
            server.thaw()
            try await events.next("connection restored", timeout: .seconds(10)) { $0 == .connectionRestored }
            XCTAssertTrue(alice.isConnected)
            await alice.disconnect()
        }
    }

    // MARK: The network changing under the connection

    func test_networkChanged_serverNoLongerAnswers_connectionMadeAnew_withoutWaitingForTheHeartbeat() async throws {
        // Health checks every 30 s: the heartbeat would tell after 90 s.
        let server = try await startServer(["--health-interval", "30"])
        try await onMain { [self] in
            let (alice, events) = try await client("alice", on: server) { $0.networkCheckTimeout = .milliseconds(500) }
            // The socket was made on a network that is gone: nothing it sends gets an answer.
            server.freeze()
            alice.networkChanged()
            try await events.next("connection lost", timeout: .seconds(3)) { $0 == .connectionLost }
            server.thaw()
            try await events.next("connection restored", timeout: .seconds(10)) { $0 == .connectionRestored }
            XCTAssertTrue(alice.isConnected)
            await alice.disconnect()
        }
    }

    func test_networkChanged_serverAnswers_connectionKept() async throws {
        let server = try await startServer(["--health-interval", "30"])
        try await onMain { [self, call] in
            let (alice, events) = try await client("alice", on: server) { $0.networkCheckTimeout = .milliseconds(500) }
            alice.networkChanged()
            try await Task.sleep(for: .seconds(1.5))
            XCTAssertEqual(events.events, [], "a connection that answered was given up")
            XCTAssertTrue(alice.isConnected)
            _ = try await alice.getOrCreateCall(call, memberIDs: [], ring: false, video: false)
            await alice.disconnect()
        }
    }

    func test_networkChanged_whileAReconnectionWaitsOutItsBackoff_triesAtOnce() async throws {
        let server = try await startServer()
        try await onMain { [self] in
            let (alice, events) = try await client("alice", on: server) {
                $0.reconnectBackoff = ReconnectBackoff(initial: .seconds(8), maximum: .seconds(8), jitter: 0)
            }
            server.kill()
            try await events.next("connection lost") { $0 == .connectionLost }
            try await server.restart()
            // The network is back (an address came): not another 8 s of waiting.
            alice.networkChanged()
            try await events.next("connection restored", timeout: .seconds(3)) { $0 == .connectionRestored }
            XCTAssertTrue(alice.isConnected)
            await alice.disconnect()
        }
    }

    func test_serverStopsAnswering_request_failsWithATimeoutSentence() async throws {
        let server = try await startServer(["--health-interval", "30"])
        try await onMain { [self, call] in
            let (alice, _) = try await client("alice", on: server) { $0.requestTimeout = .milliseconds(300) }
            server.freeze()
            defer { server.thaw() }
            do {
                _ = try await alice.getCall(call)
                XCTFail("a frozen server answered")
            } catch let error as CallError {
                XCTAssertTrue(error.message.contains("did not answer within 0.3 seconds"), error.message)
            }
            await alice.disconnect()
        }
    }

    func test_disconnect_serverGoesAway_noEventsAndNoReconnection() async throws {
        let server = try await startServer()
        try await onMain { [self] in
            let (alice, events) = try await client("alice", on: server)
            await alice.disconnect()
            server.kill()
            try await Task.sleep(for: .milliseconds(300))  // only time can show that nothing happens
            XCTAssertTrue(events.events.isEmpty, "\(events.events)")
            XCTAssertFalse(alice.isConnected)
        }
    }
}

/// Runs a test body on the main actor, where the client lives.
func onMain(_ body: @MainActor @escaping () async throws -> Void) async throws {
    try await body()
}
