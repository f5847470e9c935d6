import ConfabProtocol
import ConfabTestSupport
import Foundation
import JanusProtocol
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
        let serverWasRunning = server?.isRunning
        server?.stop()
        for node in janus.values { await node.stop() }
        // The logs go with the folder; a failed test keeps their last words in its output.
        if (testRun?.failureCount ?? 0) > 0, let directory {
            print("JanusNodesTests: the server was \(serverWasRunning == true ? "running" : "not running") at the end"
                  + (server.map { $0.isRunning ? "" : " (exit status \($0.process.terminationStatus), reason \($0.process.terminationReason.rawValue))" } ?? ""))
            for name in ["server.log", "janus-a.log", "janus-b.log"] {
                let log = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "(none)"
                print("--- \(name), \(logExcerpt(log))")
            }
            // Whole, in the build folder: the crash this keeps has come only in full CI runs.
            let kept = URL(fileURLWithPath: ".build/test-artifacts/\(self.name.filter { $0.isLetter || $0.isNumber || $0 == "_" })")
            try? FileManager.default.createDirectory(at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: kept)
            if (try? FileManager.default.moveItem(at: directory, to: kept)) != nil { print("JanusNodesTests: its folder is kept in \(kept.path)") }
        }
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
        // The server stays ready: calls can still be served.
        let (status, _) = try await HTTPGet.fetch("http://127.0.0.1:\(port)/ready")
        XCTAssertEqual(status, 200)
        // A new call goes on the live node too, not on the dead one.
        let other = try await alice.send(JoinCallRequest(cid: CallID(type: .default, id: "after"), create: true), timeout: .seconds(15))
        XCTAssertEqual(other.media?.janusURL, live)
    }

    func test_frozenNode_missesKeepalives_isDown_andItsCallMoves() async throws {
        let nodes = try await startServerWithTwoNodes()
        let alice = try await connect("alice")
        let joined = try await alice.send(JoinCallRequest(cid: CallID(type: .default, id: "frozen"), create: true), timeout: .seconds(15))
        let frozen = try XCTUnwrap(joined.media?.janusURL), live = try XCTUnwrap(nodes.first { $0 != frozen })
        let pid = try XCTUnwrap(janus[frozen]).pid

        // When its Janus stops answering without closing anything (as a hung process would)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        let stoppedAt = ContinuousClock.now

        // Then an unanswered keepalive (every 5 s, 5 s to answer) and a reconnection that gets no
        // handshake (5 s) make it down, and its call moves (within 15 s; the rest is margin
        // for a busy machine)
        let port = try serverPort()
        let moved = await eventually(within: .seconds(25)) {
            let metrics = (try? await Metrics.fetch(port: port)) ?? [:]
            return metrics["confab_janus_node_up{node=\"\(frozen)\"}"] == 0 && metrics["confab_janus_node_rooms{node=\"\(live)\"}"] == 1
        }
        XCTAssertTrue(moved, "a Janus that stopped answering is found out and its call moved")
        print("janus nodes: a frozen node was found down and its call moved \(ContinuousClock.now - stoppedAt) after it froze")

        // And when it answers again, the room left on it goes (whoever was still in it is
        // dropped, and renews onto the call's new node), so the call is not split
        let room = try XCTUnwrap(joined.media?.room)
        kill(pid, SIGCONT)
        let probe = try await probe(frozen)
        let gone = await eventually(within: .seconds(10)) {
            do {
                _ = try await probe.participantDisplays(room: room)
                return false
            } catch {
                return (error as? JanusError)?.pluginErrorCode == JanusError.noSuchRoom
            }
        }
        XCTAssertTrue(gone, "the room left on the node that came back is destroyed")
        let up = await eventually { (try? await Metrics.fetch(port: port))?["confab_janus_node_up{node=\"\(frozen)\"}"] == 1 }
        XCTAssertTrue(up)
    }

    func test_killedNode_startedAgain_isUpAgain_andTakesTheNextCall() async throws {
        let nodes = try await startServerWithTwoNodes()
        let alice = try await connect("alice")
        _ = try await alice.send(JoinCallRequest(cid: CallID(type: .default, id: "busy"), create: true), timeout: .seconds(15))
        let port = try serverPort()
        // Given the idle node (the second: the first took the call) killed and seen down
        let idle = nodes[1]
        kill(try XCTUnwrap(janus[idle]).pid, SIGKILL)
        let down = await eventually(within: .seconds(5)) { (try? await Metrics.fetch(port: port))?["confab_janus_node_up{node=\"\(idle)\"}"] == 0 }
        XCTAssertTrue(down)

        // When it is started again on the same port
        try startJanus(named: "b", url: idle)

        // Then the server's watcher finds it up again, and the next call goes there (least load)
        let up = await eventually(within: .seconds(10)) { (try? await Metrics.fetch(port: port))?["confab_janus_node_up{node=\"\(idle)\"}"] == 1 }
        XCTAssertTrue(up, "a node that comes back is up again without restarting the server")
        let next = try await alice.send(JoinCallRequest(cid: CallID(type: .default, id: "next"), create: true), timeout: .seconds(15))
        XCTAssertEqual(next.media?.janusURL, idle)
    }

    func test_serverRestarted_findsACallsRoomOnItsNode_insteadOfPlacingItAgain() async throws {
        let nodes = try await startServerWithTwoNodes()
        let cid = CallID(type: .default, id: "kept")
        let alice = try await connect("alice")
        let first = try await alice.send(JoinCallRequest(cid: cid, create: true), timeout: .seconds(15))
        XCTAssertEqual(first.media?.janusURL, nodes[0])
        await alice.close()
        clients.removeAll()

        // When the server restarts with the nodes given the other way round (an empty node
        // first: placement by load alone would pick it)
        server?.stop()
        try await launchServer(nodes: nodes.reversed())

        // Then a join finds the call's room where it is
        let again = try await connect("alice")
        let joined = try await again.send(JoinCallRequest(cid: cid), timeout: .seconds(15))
        XCTAssertEqual(joined.media?.janusURL, nodes[0], "the call's participants on the first node must not be split from the newcomers")
    }

    func test_everyNodeKilled_notReady_saysJanusDown() async throws {
        let nodes = try await startServerWithTwoNodes()
        for node in nodes { kill(try XCTUnwrap(janus[node]).pid, SIGKILL) }
        let port = try serverPort()
        let notReady = await eventually(within: .seconds(5)) {
            (try? await HTTPGet.fetch("http://127.0.0.1:\(port)/ready"))?.status == 503
        }
        XCTAssertTrue(notReady, "no node up: no call can get media")
        let (_, body) = try await HTTPGet.fetch("http://127.0.0.1:\(port)/ready")
        XCTAssertEqual(try ConfabJSON.decoder().decode(ReadinessStatus.self, from: body), ReadinessStatus(database: .ok, janus: .down))
    }

    func test_janusNodeThatIsNotAWebSocketURL_isRefusedAtStart() async throws {
        let result = try await ServerBinary.runToExit([
            "--port", "0", "--dev-auth", "--db", directory.appendingPathComponent("server.sqlite").path,
            "--janus-node", "ws://127.0.0.1:8188", "--janus-node", "127.0.0.1:8189",
        ])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("--janus-node"), result.stderr)
    }

    // MARK: Helpers

    /// Two Janus nodes configured by `janus-config` with one key file, and a server given both.
    private func startServerWithTwoNodes() async throws -> [String] {
        var urls: [String] = []
        for name in ["a", "b"] {
            let url = "ws://127.0.0.1:\(try freeTCPPort(host: "127.0.0.1"))"
            try startJanus(named: name, url: url)
            urls.append(url)
        }
        try await launchServer(nodes: urls)
        return urls
    }

    private var keyFile: String { directory.appendingPathComponent("janus-admin.key").path }

    /// A Janus configured by `janus-config` (with the shared key file) listening at `url`.
    private func startJanus(named name: String, url: String) throws {
        let folder = directory.appendingPathComponent("janus-\(name)").path
        let port = try XCTUnwrap(url.split(separator: ":").last.map(String.init))
        try runToCompletion(["janus-config", "--folder", folder, "--admin-key-file", keyFile, "--janus-port", port,
                             "--rtp-ports", name == "a" ? "30000-30999" : "31000-31999"])
        janus[url] = try ChildProcess.start(
            try XCTUnwrap(ManagedJanus.findExecutable()), ["--disable-colors", "--configs-folder=\(folder)"],
            logPath: directory.appendingPathComponent("janus-\(name).log").path)
    }

    /// A server given `nodes` with `--janus-node`, once it reports every node up (so that
    /// placement has them all to choose from).
    private func launchServer(nodes: [String]) async throws {
        server = try await ServerBinary.launch(
            ["--port", "0", "--dev-auth", "--db", directory.appendingPathComponent("server.sqlite").path, "--janus-admin-key-file", keyFile]
                + nodes.flatMap { ["--janus-node", $0] },
            stderr: directory.appendingPathComponent("server.log"))
        let port = try serverPort()
        let allUp = await eventually {
            let metrics = (try? await Metrics.fetch(port: port)) ?? [:]
            return nodes.allSatisfy { metrics["confab_janus_node_up{node=\"\($0)\"}"] == 1 }
        }
        XCTAssertTrue(allUp, "the server reports every node up")
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
