import ConfabTestSupport
import ConfabProtocol
import Foundation
import XCTest

/// `confab-peer --media test` where no network namespace is needed: bad media options, and a
/// coordinator that hands out no media server.
final class MediaPeerCommandLine_EndToEndTests: XCTestCase {
    private var directory: URL!
    private var server: ServerProcess?
    private var peers: [PeerProcess] = []

    override func setUp() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-e2e-media-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        for peer in peers { peer.stop() }
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func test_colourThatIsNotRRGGBB_exitsNonZeroSayingWhatItTakes() async throws {
        let peer = try PeerProcess("alice", serverURL: "ws://127.0.0.1:9", directory: directory,
                                   ["join", "default:x", "--media", "test", "--color", "red"])
        peers.append(peer)
        let (status, output) = try await peer.exit()
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(output.contains("--color takes RRGGBB"), output)
    }

    func test_muteScheduleWithoutMedia_exitsNonZeroSayingItNeedsMedia() async throws {
        let peer = try PeerProcess("alice", serverURL: "ws://127.0.0.1:9", directory: directory,
                                   ["join", "default:x", "--mute-after", "1"])
        peers.append(peer)
        let (status, output) = try await peer.exit()
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(output.contains("need --media test"), output)
    }

    func test_testMediaWithASignallingOnlyServer_joinsAndLeaves_reportingNoMediaReceived() async throws {
        let server = try await ServerProcess.start(directory: directory)
        self.server = server
        let peer = try PeerProcess("alice", server: server, directory: directory,
                                   ["join", "default:quiet", "--create", "--duration", "0.3", "--media", "test"])
        peers.append(peer)
        let report = try await peer.report()
        XCTAssertEqual(report.stateNames, ["idle", "joining", "inCall", "idle"])
        XCTAssertEqual(report.outcome, "left")
        let media = try XCTUnwrap(try readMediaReport(of: peer).media, "no media section in the report")
        XCTAssertNotNil(media.inCallAt)
        XCTAssertNil(media.connectedAt, "media connected without a media server")
        XCTAssertTrue(media.remote.isEmpty)
    }

    /// A SIGTERM that reaches the peer while it starts is kept for its stop: it stops waiting,
    /// writes its report and exits 0, as with one sent later (tests and bots stop peers so).
    /// It could be lost, as confab-server's could (`ServerProcessTests`): the moment between
    /// the peer ignoring the signal and Dispatch taking it cannot be hit on demand, so the signal
    /// is made pending before the peer's first line — which the old peer's `SIG_IGN` discarded,
    /// and it waited on for a ring (still running after 10 s).
    func test_stopSignalPendingAsThePeerStarts_stopsItWithItsReport() async throws {
        let server = try await ServerProcess.start(directory: directory)
        self.server = server
        let peer = try PeerProcess("bob", server: server, directory: directory, ["answer", "--timeout", "30"],
                                   launcher: ProcessLaunchers.withStopPending)
        peers.append(peer)
        // Well within the 30 s it would otherwise wait for a ring.
        let report = try await peer.report(timeout: .seconds(10))
        XCTAssertEqual(report.outcome, "stopped before any call rang")
    }

    /// A peer whose media server refuses it leaves at once, while its DTLS certificate (an RSA
    /// key, 0.1–0.9 s) is still being made on a thread of its own. It used to exit under that
    /// thread: `exit` ran OpenSSL's clean-up, which freed the locks the key generation was still
    /// taking — signal 11 in 1 of 6 runs here, and once in CI (a signalling-only join above).
    /// Now it waits for that work first, and every run ends with the error it reports — one
    /// error, the refusal itself: the socket's end used to be reported twice, as a lost
    /// connection and as "no connection within 10 s", whichever came first (once in CI).
    func test_refusedAtOnce_whileItsCertificateIsMade_exitsWithTheError_neverCrashing() async throws {
        for run in 1...20 {
            let peer = try PeerProcess("alice", serverURL: "ws://127.0.0.1:9", directory: directory,
                                       ["janus", "--url", "ws://127.0.0.1:9", "--room", "1"])
            peers.append(peer)
            let (status, output) = try await peer.exit()
            XCTAssertFalse(peer.wasKilledBySignal, "run \(run): the peer crashed (signal \(status)):\n\(output)")
            XCTAssertEqual(status, 1, "run \(run):\n\(output)")
            XCTAssertTrue(output.contains("error: the media server at ws://127.0.0.1:9 is unreachable"), "run \(run):\n\(output)")
            XCTAssertFalse(output.contains("no connection within"), "run \(run): a refusal reported as a timeout:\n\(output)")
            if peer.wasKilledBySignal { break }
        }
    }

    private func readMediaReport(of peer: PeerProcess) throws -> MediaPeerReport {
        try ConfabJSON.decoder().decode(MediaPeerReport.self, from: Data(contentsOf: peer.reportURL))
    }
}
