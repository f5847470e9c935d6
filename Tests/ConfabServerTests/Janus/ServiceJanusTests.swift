import ConfabProtocol
import Foundation
import XCTest
@testable import ConfabServer

/// Janus run as a service of its own, as data/systemd/confab-janus.service runs it: configured
/// by `confab-server janus-config`, started with `janus --configs-folder`, and used by a
/// `confab-server --janus URL --janus-admin-key-file FILE` — all real processes.
final class ServiceJanusTests: XCTestCase {
    private var directory: URL!
    /// Started with a parent-death signal, so it cannot outlive the tests even if they crash.
    private var janus: ChildProcess?
    private var server: ServerBinary?

    override func setUp() async throws {
        try requireJanus()
        directory = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        server?.stop()
        await janus?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func test_janusConfiguredByJanusConfig_servesTheCallsOfAServerGivenTheSameKeyFile() async throws {
        // Given the configuration written by the command the unit's ExecStartPre runs
        let folder = directory.appendingPathComponent("janus").path
        let keyFile = directory.appendingPathComponent("janus-admin.key").path
        let port = try freeTCPPort(host: "127.0.0.1")
        let written = try runToCompletion(["janus-config", "--folder", folder, "--admin-key-file", keyFile, "--janus-port", String(port)])
        XCTAssertEqual(written.split(separator: "\n").count, 3, written)
        let keyFileMode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? NSNumber
        XCTAssertEqual(keyFileMode?.intValue, 0o600)
        let videoRoom = try String(contentsOfFile: folder + "/janus.plugin.videoroom.jcfg", encoding: .utf8)
        XCTAssertTrue(videoRoom.contains(try ServiceJanusConfiguration.adminKey(fromFile: keyFile)), "the key file's key is the one Janus requires")

        // When Janus runs with it (as ExecStart does) and a server is pointed at it
        janus = try ChildProcess.start(
            try XCTUnwrap(ManagedJanus.findExecutable()), ["--disable-colors", "--configs-folder=\(folder)"],
            logPath: directory.appendingPathComponent("janus.log").path)
        let url = "ws://127.0.0.1:\(port)"
        let up = await eventually {
            guard let probe = try? await JanusProbe.connect(to: url) else { return false }
            await probe.close()
            return true
        }
        XCTAssertTrue(up, "janus answers on \(url)")
        let server = try await ServerBinary.launch([
            "--port", "0", "--dev-auth", "--db", directory.appendingPathComponent("server.sqlite").path,
            "--janus", url, "--janus-admin-key-file", keyFile,
        ])
        self.server = server
        let serverPort = try XCTUnwrap(server.listeningLine?.split(separator: ":").last.flatMap { Int($0) })

        // Then a join gets a room on that Janus (created with the key) whose token Janus accepts
        let alice = try await TestClient.connect(to: "ws://127.0.0.1:\(serverPort)", as: "alice")
        let joined = try await alice.send(JoinCallRequest(cid: CallID(type: .default, id: "service"), create: true), timeout: .seconds(15))
        let media = try XCTUnwrap(joined.media)
        XCTAssertEqual(media.janusURL, url)
        let probe = try await JanusProbe.connect(to: url)
        let publisher = try await probe.joinAsPublisher(room: media.room, token: media.token)
        XCTAssertEqual(publisher.kind, .joined)
        await probe.close()
        await alice.close()
    }

    func test_serverWithAMissingKeyFile_isRefusedAtStart_sayingWhatToRun() async throws {
        let result = try await ServerBinary.runToExit([
            "--port", "0", "--dev-auth", "--db", directory.appendingPathComponent("server.sqlite").path,
            "--janus", "ws://127.0.0.1:1", "--janus-admin-key-file", directory.appendingPathComponent("nope.key").path,
        ])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.stdout.contains("listening"))
        XCTAssertTrue(result.stderr.contains("confab-server janus-config"), result.stderr)
    }

    private func runToCompletion(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = try ServerBinary.executable()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self)
    }
}
