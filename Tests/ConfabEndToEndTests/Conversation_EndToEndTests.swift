import ConfabTestSupport
import Foundation
import XCTest

/// Issue 18 between real processes: `confab-peer`s chat, react, raise hands, knock on a call
/// that asks to join and answer knocks, through one `confab-server`; each test reads the peers'
/// JSON reports.
final class Conversation_EndToEndTests: XCTestCase {
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

    private func peer(_ user: String, _ command: String...) throws -> PeerProcess {
        guard let server else { throw TestFailure("start the server first") }
        let peer = try PeerProcess(user, server: server, directory: directory, command)
        peers.append(peer)
        return peer
    }

    func test_twoPeers_chatBothWays_lateJoinerReadsTheHistory_andSeesReactionAndHand() async throws {
        server = try await ServerProcess.start([], directory: directory)
        let alice = try peer(
            "alice", "join", "default:e2e-chat", "--create", "--members", "bob", "--duration", "4", "--chat", "hello bob")
        try await alice.waitFor("sent chat message")
        let bob = try peer(
            "bob", "join", "default:e2e-chat", "--duration", "1", "--chat", "hi alice", "--react", "🎉", "--raise-hand")

        let bobs = try await bob.report()
        let alices = try await alice.report()
        XCTAssertEqual(bobs.chatHistory?.map(\.text), ["hello bob"], "the late joiner reads what was said before")
        XCTAssertEqual(bobs.chatHistory?.map(\.user), ["alice"])
        XCTAssertEqual(bobs.chatSent?.map(\.text), ["hi alice"])
        XCTAssertTrue(alices.chat?.contains { $0.user == "bob" && $0.text == "hi alice" } ?? false, "alice never got bob's message")
        XCTAssertEqual(alices.reactions?.map(\.emoji), ["🎉"])
        XCTAssertEqual(alices.reactions?.map(\.user), ["bob"])
        XCTAssertEqual(alices.hands?.first?.type, "raised")
        XCTAssertEqual(alices.hands?.first?.user, "bob")
        XCTAssertEqual(bobs.activityErrors ?? [], [])
        XCTAssertEqual(alices.activityErrors ?? [], [])
    }

    func test_nonMemberPeer_knocks_theHostPeerAdmitsIt_andItJoins() async throws {
        // With --open-calls a non-member may knock without the link (the link is the other way in).
        server = try await ServerProcess.start(["--open-calls"], directory: directory)
        let alice = try peer("alice", "join", "default:e2e-room", "--create", "--ask-to-join", "--admit", "carol", "--duration", "6")
        try await alice.waitFor("state inCall")
        let carol = try peer("carol", "join", "default:e2e-room", "--duration", "1", "--chat", "thanks for letting me in")

        let carols = try await carol.report()
        let alices = try await alice.report()
        XCTAssertEqual(carols.admission, "admitted")
        XCTAssertEqual(carols.outcome, "left")
        XCTAssertEqual(carols.stateNames, ["idle", "joining", "waitingForHost", "joining", "inCall", "idle"])
        XCTAssertEqual(alices.knocks?["carol"], "admitted")
        XCTAssertTrue(alices.participants.contains { $0.user == "carol" }, "alice never saw carol join")
        XCTAssertTrue(alices.chat?.contains { $0.user == "carol" } ?? false)
    }

    func test_mediaPeer_knocksThroughTheCallViewModel_andJoinsOnceAdmitted() async throws {
        // Signalling only: what is checked is that the view model's join waits for the host.
        server = try await ServerProcess.start(["--open-calls"], directory: directory)
        let alice = try peer("alice", "join", "default:e2e-media-room", "--create", "--ask-to-join", "--admit", "carol", "--duration", "6")
        try await alice.waitFor("state inCall")
        let carol = try peer("carol", "join", "default:e2e-media-room", "--duration", "0.5", "--media", "test")

        let carols = try await carol.report()
        XCTAssertEqual(carols.admission, "admitted")
        XCTAssertEqual(carols.outcome, "left")
        XCTAssertNil(carols.error)
        XCTAssertEqual(carols.stateNames, ["idle", "joining", "waitingForHost", "joining", "inCall", "idle"])
    }

    func test_nonMemberPeer_deniedByTheHost_isTold_andNeverJoins() async throws {
        server = try await ServerProcess.start(["--open-calls"], directory: directory)
        let alice = try peer("alice", "join", "default:e2e-deny", "--create", "--ask-to-join", "--deny", "dave", "--duration", "5")
        try await alice.waitFor("state inCall")
        let dave = try peer("dave", "join", "default:e2e-deny", "--duration", "1")

        let daves = try await dave.report()
        let alices = try await alice.report()
        XCTAssertEqual(daves.admission, "denied")
        XCTAssertEqual(daves.outcome, "denied")
        XCTAssertNil(daves.error)
        XCTAssertFalse(daves.stateNames.contains("inCall"))
        XCTAssertEqual(alices.knocks?["dave"], "denied")
        XCTAssertFalse(alices.participants.contains { $0.user == "dave" })
    }
}
