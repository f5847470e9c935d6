import ConfabTestSupport
import Foundation
import XCTest

/// The ring rules between real processes: one `confab-server`, `confab-peer`s ringing and
/// answering. Each test reads the JSON reports of both sides.
final class Ringing_EndToEndTests: XCTestCase {
    private var directory: URL!
    private var server: ServerProcess?
    private var peers: [PeerProcess] = []

    override func setUp() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        for peer in peers { peer.stop() }
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the coordinator; the ring's auto-cancel timeout is long unless a test shortens it.
    private func startServer(ringTimeout: Double = 20) async throws -> ServerProcess {
        let server = try await ServerProcess.start(["--ring-timeout", String(ringTimeout)], directory: directory)
        self.server = server
        return server
    }

    private func peer(_ user: String, _ command: String...) throws -> PeerProcess {
        guard let server else { throw TestFailure("start the server first") }
        let peer = try PeerProcess(user, server: server, directory: directory, command)
        peers.append(peer)
        return peer
    }

    func test_aliceRingsBob_bobAccepts_bothGoThroughJoiningToInCallAndSeeEachOther() async throws {
        _ = try await startServer()
        let bob = try peer("bob", "answer", "--accept", "--duration", "1")
        try await bob.waitFor("connected as bob")
        let alice = try peer("alice", "ring", "default:e2e-accept", "--members", "bob", "--duration", "1")

        let caller = try await alice.report()
        let callee = try await bob.report()
        XCTAssertEqual(caller.outcome, "accepted by bob")
        XCTAssertEqual(caller.stateNames, ["idle", "outgoing", "joining", "inCall", "idle"])
        XCTAssertEqual(caller.events("accepted").first?.user, "bob")
        XCTAssertEqual(caller.events("accepted").first?.byThisDevice, false)
        XCTAssertTrue(caller.participants.contains { $0.user == "bob" }, "alice never saw bob in the call")

        XCTAssertEqual(callee.outcome, "accepted")
        XCTAssertEqual(callee.stateNames, ["idle", "incoming", "joining", "inCall", "idle"])
        XCTAssertEqual(callee.events("ringing").map(\.user), ["alice"])
        XCTAssertEqual(callee.events("accepted").first?.byThisDevice, true)
        XCTAssertTrue(callee.participants.contains { $0.user == "alice" }, "bob never saw alice in the call")
    }

    func test_aliceRingsBob_bobDeclines_aliceSeesRejectedDeclineByBobAndReturnsToIdle() async throws {
        _ = try await startServer()
        let bob = try peer("bob", "answer", "--reject")
        try await bob.waitFor("connected as bob")
        let alice = try peer("alice", "ring", "default:e2e-decline", "--members", "bob")

        let caller = try await alice.report()
        let callee = try await bob.report()
        XCTAssertEqual(caller.outcome, "rejected: decline by bob")
        XCTAssertEqual(caller.stateNames, ["idle", "outgoing", "idle"])
        let rejected = try XCTUnwrap(caller.events("rejected").first)
        XCTAssertEqual(rejected.user, "bob")
        XCTAssertEqual(rejected.reason, "decline")
        XCTAssertEqual(caller.events("ended").first?.reason, "Nobody accepted the call")

        XCTAssertEqual(callee.outcome, "rejected: decline")
        XCTAssertEqual(callee.stateNames, ["idle", "incoming", "idle"])
    }

    func test_aliceRingsBob_nobodyAnswersBeforeTheRingTimeout_bothSeeMissed() async throws {
        _ = try await startServer(ringTimeout: 1)
        let bob = try peer("bob", "answer", "--ignore")
        try await bob.waitFor("connected as bob")
        let alice = try peer("alice", "ring", "default:e2e-missed", "--members", "bob")

        let caller = try await alice.report()
        let callee = try await bob.report()
        XCTAssertEqual(caller.outcome, "missed")
        XCTAssertEqual(caller.stateNames, ["idle", "outgoing", "idle"])
        XCTAssertEqual(caller.events("ended").first?.reason, "Nobody answered")

        XCTAssertEqual(callee.outcome, "missed")
        XCTAssertEqual(callee.stateNames, ["idle", "incoming", "idle"])
        XCTAssertEqual(callee.events("missed").count, 1)
    }

    func test_aliceCancelsWhileBobsPhoneRings_bobStopsRingingWithCancelledByAlice() async throws {
        _ = try await startServer()
        let bob = try peer("bob", "answer", "--ignore")
        try await bob.waitFor("connected as bob")
        let alice = try peer("alice", "ring", "default:e2e-cancel", "--members", "bob", "--cancel-after", "0.5")

        let caller = try await alice.report()
        let callee = try await bob.report()
        XCTAssertEqual(caller.outcome, "cancelled")
        XCTAssertEqual(caller.stateNames, ["idle", "outgoing", "idle"])

        XCTAssertEqual(callee.outcome, "cancelled by alice")
        XCTAssertEqual(callee.stateNames, ["idle", "incoming", "idle"])
        let cancel = try XCTUnwrap(callee.events("rejected").first)
        XCTAssertEqual(cancel.user, "alice")
        XCTAssertEqual(cancel.reason, "cancel")
    }

    func test_bobOnTwoDevices_laptopAccepts_phoneStopsRingingAndStaysOutOfTheCall() async throws {
        _ = try await startServer()
        let laptop = try peer("bob", "answer", "--accept", "--duration", "1")
        let phone = try peer("bob", "answer", "--accept", "--answer-after", "10")
        try await laptop.waitFor("connected as bob")
        try await phone.waitFor("connected as bob")
        let alice = try peer("alice", "ring", "default:e2e-elsewhere", "--members", "bob", "--duration", "1")

        let caller = try await alice.report()
        let accepted = try await laptop.report()
        let stopped = try await phone.report()
        XCTAssertEqual(caller.outcome, "accepted by bob")
        XCTAssertEqual(accepted.outcome, "accepted")
        XCTAssertEqual(accepted.stateNames, ["idle", "incoming", "joining", "inCall", "idle"])

        XCTAssertEqual(stopped.outcome, "accepted on another device")
        XCTAssertEqual(stopped.stateNames, ["idle", "incoming", "idle"])
        let elsewhere = try XCTUnwrap(stopped.events("accepted").first)
        XCTAssertEqual(elsewhere.user, "bob")
        XCTAssertEqual(elsewhere.byThisDevice, false)
    }

    func test_bobAlreadyInAnotherCall_aliceRingsHim_sheSeesRejectedBusyAndHeIsNeverRung() async throws {
        _ = try await startServer()
        let bob = try peer("bob", "join", "default:e2e-other", "--create", "--duration", "2")
        try await bob.waitFor("state inCall")
        let alice = try peer("alice", "ring", "default:e2e-busy", "--members", "bob")

        let caller = try await alice.report()
        let callee = try await bob.report()
        XCTAssertEqual(caller.outcome, "rejected: busy by bob")
        XCTAssertEqual(caller.stateNames, ["idle", "outgoing", "idle"])

        XCTAssertEqual(callee.outcome, "left")
        XCTAssertEqual(callee.stateNames, ["idle", "joining", "inCall", "idle"])
        XCTAssertTrue(callee.events("ringing").isEmpty, "a busy user was rung")
        let busy = try XCTUnwrap(callee.events("rejected").first, "bob was not told he was busy")
        XCTAssertEqual(busy.user, "bob")
        XCTAssertEqual(busy.reason, "busy")
        XCTAssertEqual(busy.byThisDevice, false)
        // bob's client learns whose ring it was, to tell him he missed alice's call.
        let turnedAway = try XCTUnwrap(callee.events("ringTurnedAway").first, "bob's client cannot tell him who called")
        XCTAssertEqual(turnedAway.user, "alice")
        XCTAssertEqual(turnedAway.call, "default:e2e-busy")
    }
}
