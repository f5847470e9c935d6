import ConfabProtocol
import Foundation
import XCTest
@testable import ConfabServer

/// Several Janus nodes (issue 17): two real Janus processes, configured by
/// `confab-server janus-config` with one admin key file, and one real `confab-server` given
/// both with `--janus-node`. Calls spread over the nodes; a node killed outright hands its
/// calls to the other.
final class JanusNodesTests: XCTestCase {
    private var directory: URL!
    /// Each started with a parent-death signal, so none can outlive the tests.
    private var janus: [String: ChildProcess] = [:]
    private var server: ServerBinary?
    private var clients: [TestClient] = []
    private var probes: [JanusProbe] = []

    override func setUp() async throws {
        try requireJanus()
        directory = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        for probe in probes { await probe.close() }
        for client in clients { await client.close() }
        server?.stop()
        for node in janus.values { await node.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    func test_severalCalls_spreadOverBothNodes_eachRoomOnTheNodeItsEndpointNames() async throws {
        let nodes = try await startServerWithTwoNodes()

        // When six calls are joined one after another
        let alice = try await connect("alice")
        var endpoints: [MediaEndpoint] = []
        for number in 1...6 {
            let joined = try await alice.send(JoinCallRequest(cid: CallID(type: .default, id: "spread-\(number)"), create: true),
                                              timeout: .seconds(15))
            endpoints.append(try XCTUnwrap(joined.media))
        }

        // Then each node got three (ties go by load, then order), and says so in /metrics
        let byNode = Dictionary(grouping: endpoints, by: \.janusURL)
        XCTAssertEqual(Set(byNode.keys), Set(nodes), "calls go on both nodes")
        XCTAssertEqual(byNode.values.map(\.count).sorted(), [3, 3], "the least-loaded node takes each new call")
        let metrics = try await Metrics.fetch(port: try serverPort())
        for node in nodes {
            XCTAssertEqual(metrics["confab_janus_node_up{node=\"\(node)\"}"], 1, "\(metrics)")
            XCTAssertEqual(metrics["confab_janus_node_rooms{node=\"\(node)\"}"], 3, "\(metrics)")
            XCTAssertEqual(metrics["confab_janus_node_participants{node=\"\(node)\"}"], 3, "\(metrics)")
        }
        // … and the room really is on the node the endpoint names: Janus accepts its token there
        for endpoint in [try XCTUnwrap(byNode[nodes[0]]?.first), try XCTUnwrap(byNode[nodes[1]]?.first)] {
            let joined = try await probe(endpoint.janusURL).joinAsPublisher(room: endpoint.room, token: endpoint.token)
            XCTAssertEqual(joined.kind, .joined)
        }
    }

    func test_nodeKilled_itsCallMovesToTheLiveNode_renewedMediaWorksThere() async throws {
        let nodes = try await startServerWithTwoNodes()
        let alice = try await connect("alice")
        let cid = CallID(type: .default, id: "failover")
        let joinedFirst = try await alice.send(JoinCallRequest(cid: cid, create: true), timeout: .seconds(15))
        let first = try XCTUnwrap(joinedFirst.media)
        let dead = first.janusURL, live = try XCTUnwrap(nodes.first { $0 != dead })

        // When the call's node is killed as a crash would
        let killedAt = ContinuousClock.now
        kill(try XCTUnwrap(janus[dead]).pid, SIGKILL)

        // Then the server sees it down and moves the call's room to the other node at once …
        let port = try serverPort()
        let moved = await eventually(within: .seconds(5)) {
            let metrics = (try? await Metrics.fetch(port: port)) ?? [:]
            return metrics["confab_janus_node_up{node=\"\(dead)\"}"] == 0 && metrics["confab_janus_node_rooms{node=\"\(live)\"}"] == 1
        }
        XCTAssertTrue(moved, "the dead node is reported down and its call's room placed on the live one")
        print("janus nodes: the call was moved \(ContinuousClock.now - killedAt) after its node was killed")
        // … and the participant's renewal (what its app asks when its Janus connection closes)
        // gets the same session an endpoint on the live node, which Janus accepts
        let renewed = try await alice.send(JoinCallRequest(cid: cid, renewMedia: true), timeout: .seconds(15))
        XCTAssertEqual(renewed.sessionId, joinedFirst.sessionId)
        let media = try XCTUnwrap(renewed.media)
        XCTAssertEqual(media.janusURL, live)
        let joined = try await probe(media.janusURL).joinAsPublisher(room: media.room, token: media.token)
        XCTAssertEqual(joined.kind, .joined)
        // A new call goes on the live node too, not on the dead one.
        let other = try await alice.send(JoinCallRequest(cid: CallID(type: .default, id: "after"), create: true), timeout: .seconds(15))
        XCTAssertEqual(other.media?.janusURL, live)
    }

    // MARK: Helpers

    /// Two Janus nodes configured by `janus-config` with one key file, and a server given both.
    private func startServerWithTwoNodes() async throws -> [String] {
        let keyFile = directory.appendingPathComponent("janus-admin.key").path
        var urls: [String] = []
        for name in ["a", "b"] {
            let folder = directory.appendingPathComponent("janus-\(name)").path
            let port = try freeTCPPort(host: "127.0.0.1")
            try runToCompletion(["janus-config", "--folder", folder, "--admin-key-file", keyFile, "--janus-port", String(port),
                                 "--rtp-ports", name == "a" ? "30000-30999" : "31000-31999"])
            let url = "ws://127.0.0.1:\(port)"
            janus[url] = try ChildProcess.start(
                try XCTUnwrap(ManagedJanus.findExecutable()), ["--disable-colors", "--configs-folder=\(folder)"],
                logPath: directory.appendingPathComponent("janus-\(name).log").path)
            let up = await eventually {
                guard let probe = try? await JanusProbe.connect(to: url) else { return false }
                await probe.close()
                return true
            }
            XCTAssertTrue(up, "janus answers on \(url)")
            urls.append(url)
        }
        server = try await ServerBinary.launch(
            ["--port", "0", "--dev-auth", "--db", directory.appendingPathComponent("server.sqlite").path, "--janus-admin-key-file", keyFile]
                + urls.flatMap { ["--janus-node", $0] },
            stderr: directory.appendingPathComponent("server.log"))
        // Both nodes up before the first call, so placement has both to choose from.
        let port = try serverPort()
        let bothUp = await eventually {
            let metrics = (try? await Metrics.fetch(port: port)) ?? [:]
            return urls.allSatisfy { metrics["confab_janus_node_up{node=\"\($0)\"}"] == 1 }
        }
        XCTAssertTrue(bothUp, "the server reports both nodes up")
        return urls
    }

    private func serverPort() throws -> Int {
        try XCTUnwrap(server?.listeningLine?.split(separator: ":").last.flatMap { Int($0) })
    }

    private func connect(_ userId: String) async throws -> TestClient {
        let client = try await TestClient.connect(to: "ws://127.0.0.1:\(try serverPort())", as: userId)
        clients.append(client)
        return client
    }

    private func probe(_ url: String) async throws -> JanusProbe {
        let probe = try await JanusProbe.connect(to: url)
        probes.append(probe)
        return probe
    }

    private func runToCompletion(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = try ServerBinary.executable()
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "confab-server \(arguments.joined(separator: " "))")
    }
}
