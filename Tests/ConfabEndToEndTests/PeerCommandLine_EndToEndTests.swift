import ConfabTestSupport
import Foundation
import XCTest

/// `confab-peer` as scripts use it: exit codes, messages, stopping it.
final class PeerCommandLine_EndToEndTests: XCTestCase {
    private var directory: URL!
    private var server: ServerProcess?
    private var peers: [PeerProcess] = []

    override func setUp() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-e2e-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        for peer in peers { peer.stop() }
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func test_noServerListening_join_exitsNonZeroSayingTheServerIsUnreachable() async throws {
        let peer = try PeerProcess("alice", serverURL: "ws://127.0.0.1:9", directory: directory, ["join", "default:x"])
        peers.append(peer)
        let (status, output) = try await peer.exit()
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(output.contains("Couldn’t reach the call server at ws://127.0.0.1:9/ws"), output)
    }

    func test_joiningACallThatDoesNotExist_join_exitsNonZeroWithTheServersReason() async throws {
        let server = try await ServerProcess.start(directory: directory)
        self.server = server
        let peer = try PeerProcess("alice", server: server, directory: directory, ["join", "default:nowhere"])
        peers.append(peer)
        let (status, output) = try await peer.exit()
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(output.contains("Couldn’t join the call"), output)
        XCTAssertTrue(output.contains("default:nowhere"), output)
    }

    func test_peerInACall_terminated_leavesAndStillWritesItsReport() async throws {
        let server = try await ServerProcess.start(directory: directory)
        self.server = server
        let peer = try PeerProcess("alice", server: server, directory: directory, ["join", "default:stay", "--create", "--duration", "60"])
        peers.append(peer)
        try await peer.waitFor("state inCall")
        peer.terminate()
        let report = try await peer.report(timeout: .seconds(10))
        XCTAssertEqual(report.outcome, "left")
        XCTAssertEqual(report.stateNames, ["idle", "joining", "inCall", "idle"])
        XCTAssertNotNil(report.participants.first { $0.user == "alice" }?.leftAt)
    }

    func test_peerInACall_serverRestarts_peerReconnectsAndRejoinsTheCall() async throws {
        let server = try await ServerProcess.start(directory: directory)
        self.server = server
        let peer = try PeerProcess("alice", server: server, directory: directory, ["join", "default:survive", "--create", "--duration", "60"])
        peers.append(peer)
        try await peer.waitFor("state inCall")
        try await server.restart()
        try await peer.waitFor("state reconnecting")
        let output = try await peer.waitForCount(of: "state inCall", 2, timeout: .seconds(15))
        XCTAssertTrue(output.contains("state reconnecting"), output)
        peer.terminate()
        let report = try await peer.report(timeout: .seconds(10))
        XCTAssertEqual(report.stateNames, ["idle", "joining", "inCall", "reconnecting", "inCall", "idle"])
        XCTAssertEqual(report.events("connectionLost").count, 1)
        XCTAssertEqual(report.events("connectionRestored").count, 1)
        XCTAssertEqual(report.outcome, "left")
    }
}
