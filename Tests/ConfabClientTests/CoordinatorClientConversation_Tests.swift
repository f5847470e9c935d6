import ConfabTestSupport
import ConfabClient
import ConfabCore
import ConfabProtocol
import Foundation
import XCTest

/// Issue 18's typed client methods against the real `confab-server` binary: a knock answered
/// through `joinOrKnock`, chat with its history, a reaction and a hand, each event seen by the
/// other client's server-event observer.
final class CoordinatorClientConversation_Tests: XCTestCase {
    private var servers: [ServerProcess] = []
    private let call = CallID(type: .default, id: "client-conversation")

    override func tearDown() async throws {
        for server in servers { server.stop() }
        servers.removeAll()
    }

    @MainActor
    private func client(_ user: String, on server: ServerProcess) async throws -> (CoordinatorClient, ServerEventLog) {
        let client = CoordinatorClient.forTests(user, on: server)
        let log = ServerEventLog(client)
        try await client.connect()
        return (client, log)
    }

    /// alice in the call (she made it), carol connected and not in it yet.
    @MainActor
    private func aliceInTheCall_carolConnected(on server: ServerProcess) async throws -> (CoordinatorClient, ServerEventLog, CoordinatorClient) {
        let (alice, alicesEvents) = try await client("alice", on: server)
        let (carol, _) = try await client("carol", on: server)
        _ = try await alice.getOrCreateCall(call, memberIDs: [], ring: false, video: false)
        _ = try await alice.joinCall(call, create: false)
        return (alice, alicesEvents, carol)
    }

    func test_knockAdmittedThenChatReactionAndHand_throughTheTypedMethods() async throws {
        // With --open-calls a non-member may knock without the call's link.
        let server = try await ServerProcess.start(["--open-calls"])
        servers.append(server)
        try await onMain { [self, call] in
            let (alice, alicesEvents) = try await client("alice", on: server)
            let (carol, carolsEvents) = try await client("carol", on: server)
            let created = try await alice.getOrCreateCall(call, memberIDs: [], ring: false, video: false, askToJoin: true)
            XCTAssertTrue(created.ownCapabilities.contains(.admitParticipants))
            _ = try await alice.joinCall(call, create: false)

            let knocked = try await carol.joinOrKnock(call, create: false)
            XCTAssertEqual(knocked, .waitingForHost)
            _ = try await alicesEvents.next("a knock") { if case .participantKnocked = $0 { true } else { false } }
            _ = try await alice.admitParticipant("carol", to: call)
            _ = try await carolsEvents.next("the admission") { if case .joinAdmitted = $0 { true } else { false } }
            guard case .joined(let inCall) = try await carol.joinOrKnock(call, create: false) else {
                return XCTFail("carol was let in but could not join")
            }
            XCTAssertEqual(inCall.participants.count, 2)

            let sent = try await carol.sendChatMessage("thanks!", in: call)
            let heard = try await alicesEvents.next("carol's message") { if case .chatMessage = $0 { true } else { false } }
            XCTAssertEqual(heard, .chatMessage(ChatMessageEvent(message: sent)))
            let history = try await alice.chatHistory(in: call)
            XCTAssertEqual(history.messages, [sent])
            try await carol.sendReaction(.clap, in: call)
            _ = try await alicesEvents.next("carol's reaction") { if case .reaction(let r) = $0 { r.emoji == .clap } else { false } }
            _ = try await carol.raiseHand(in: call)
            _ = try await alice.lowerHand(in: call, of: "carol")
            _ = try await carolsEvents.next("her hand lowered by alice") {
                if case .handLowered(let hand) = $0 { hand.byUserId == "alice" } else { false }
            }
            await alice.disconnect()
            await carol.disconnect()
        }
    }

    func test_deniedKnock_thenJoiningAgain_isDenied() async throws {
        let server = try await ServerProcess.start(["--open-calls"])
        servers.append(server)
        try await onMain { [self, call] in
            let (alice, _) = try await client("alice", on: server)
            let (dave, davesEvents) = try await client("dave", on: server)
            _ = try await alice.getOrCreateCall(call, memberIDs: [], ring: false, video: false, askToJoin: true)
            let knock = try await dave.joinOrKnock(call, create: false)
            XCTAssertEqual(knock, .waitingForHost)

            _ = try await alice.denyParticipant("dave", from: call)

            _ = try await davesEvents.next("the denial") { if case .joinDenied = $0 { true } else { false } }
            let again = try await dave.joinOrKnock(call, create: false)
            XCTAssertEqual(again, .denied)
            await alice.disconnect()
            await dave.disconnect()
        }
    }

    /// The join says whether the microphone and camera are on; a toggle while the join is on
    /// its way is told once it is in (the join said the state from before); later toggles are
    /// told as they come.
    func test_mediaState_saidWithTheJoin_andToldAfterAToggleDuringIt() async throws {
        let server = try await ServerProcess.start(["--open-calls"])
        servers.append(server)
        try await onMain { [self, call] in
            let (alice, alicesEvents, carol) = try await aliceInTheCall_carolConnected(on: server)

            carol.joinsWith(OwnMediaState(microphoneOn: false, cameraOn: true), in: call)
            // Runs up to its wait for the answer: the join is sent before the toggle.
            let join = Task.immediate { try await carol.joinCall(call, create: false) }
            try await carol.setMediaState(OwnMediaState(microphoneOn: true, cameraOn: true), in: call)
            let joined = try await join.value

            let heardJoin = try await alicesEvents.next("carol's join") {
                if case .participantJoined(let e) = $0 { e.participant.userId == "carol" } else { false }
            }
            guard case .participantJoined(let joinEvent) = heardJoin else { return XCTFail("not a join: \(heardJoin)") }
            let session = joinEvent.participant.sessionId
            XCTAssertEqual(joined.ownSessionID, session)
            XCTAssertEqual([joinEvent.participant.microphoneOn, joinEvent.participant.cameraOn], [false, true],
                           "the join said the state it was sent with")
            let toggled = try await alicesEvents.next("carol's microphone on") { if case .mediaStateChanged = $0 { true } else { false } }
            XCTAssertEqual(toggled, .mediaStateChanged(MediaStateEvent(cid: call, userId: "carol", sessionId: session, microphoneOn: true, cameraOn: true)))

            try await carol.setMediaState(OwnMediaState(microphoneOn: true, cameraOn: false), in: call)
            let off = try await alicesEvents.next("carol's camera off") { if case .mediaStateChanged = $0 { true } else { false } }
            XCTAssertEqual(off, .mediaStateChanged(MediaStateEvent(cid: call, userId: "carol", sessionId: session, microphoneOn: true, cameraOn: false)))
            await alice.disconnect()
            await carol.disconnect()
        }
    }

    /// A device that toggles faster than the coordinator relays (40 changes in 5 s) is refused
    /// for the last ones; the call must still end with the state the device is in, not one it
    /// left (it used to keep it until the next toggle).
    func test_mediaStateTogglesPastTheLimit_theCallStillHearsTheLastState() async throws {
        let server = try await ServerProcess.start(["--open-calls"])
        servers.append(server)
        try await onMain { [self, call] in
            let (alice, alicesEvents, carol) = try await aliceInTheCall_carolConnected(on: server)
            carol.joinsWith(OwnMediaState(microphoneOn: true, cameraOn: true), in: call)
            _ = try await carol.joinCall(call, create: false)

            // 45 changes: the 41st and later are refused; the last says the microphone is off.
            for change in 1...45 {
                try await carol.setMediaState(OwnMediaState(microphoneOn: change % 2 == 0, cameraOn: true), in: call)
            }

            _ = try await alicesEvents.next("carol's last state", timeout: .seconds(10)) { event in
                guard case .mediaStateChanged(let e) = event else { return false }
                return e.microphoneOn == false && e.userId == "carol"
                    && alicesEvents.events.filter { if case .mediaStateChanged = $0 { true } else { false } }.count > 40
            }
            let state = try await alice.getCall(call)
            XCTAssertEqual(state.participants.first { $0.user.id == "carol" }?.microphoneOn, false)
            await alice.disconnect()
            await carol.disconnect()
        }
    }
}

/// What a client's server-event observer saw, for awaiting one event with a deadline.
@MainActor
private final class ServerEventLog {
    private(set) var events: [ServerEvent] = []
    private var taken = 0

    init(_ client: CoordinatorClient) {
        client.setServerEventObserver { [weak self] event in self?.events.append(event) }
    }

    func next(_ description: String, timeout: Duration = .seconds(5), where matches: (ServerEvent) -> Bool) async throws -> ServerEvent {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = events.indices.dropFirst(taken).first(where: { matches(events[$0]) }) {
                taken = index + 1
                return events[index]
            }
            guard ContinuousClock.now < deadline else { throw TestFailure("no \(description) within \(timeout); got \(events)") }
            // Events arrive on the main actor; polling lets them in between checks.
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
