import Foundation
import XCTest

/// Interoperability with another Janus client: headless Chromium on a page of ours using
/// Debian's janus.js publishes its fake camera (640x360@30) into a plain VideoRoom and
/// subscribes to everyone; `confab-peer janus` (no coordinator) creates the room, publishes a
/// moving test picture and subscribes to everyone. Each must decode the other's video.
/// A second run with the peer's camera off checks that the page's count is honest: it must stay
/// at zero when the peer sends no video.
final class JanusInterop_EndToEndTests: XCTestCase {
    nonisolated(unsafe) private static var outcomes: [String: Result<JanusInteropRun, any Error>] = [:]

    /// Each configuration runs once per test process; its tests share the run.
    private func run(_ name: String, peerArguments: [String]) async throws -> JanusInteropRun {
        if let reason = JanusInteropRun.unavailableReason() {
            let banner = String(repeating: "!", count: 78)
            print("\n\(banner)\n!! SKIPPING the Janus interop tests: \(reason).\n\(banner)\n")
            throw XCTSkip("Janus interop tests: \(reason)")
        }
        if Self.outcomes[name] == nil {
            do {
                let run = try await JanusInteropRun.run(pageSeconds: 10, peerArguments: peerArguments)
                Self.outcomes[name] = .success(run)
                let decoded = run.pageReceived(from: "confab-peer").compactMap { $0.number("framesDecoded") }.map { String(Int($0)) }
                let fps = run.peer.media.remote.first { $0.userID == "chromium" }?.samples.compactMap(\.framesPerSecond).map { String(format: "%.0f", $0) } ?? []
                print("janus interop (\(name)): page decoded confab-peer's frames: \(decoded.joined(separator: " ")); "
                      + "confab-peer received chromium at fps: \(fps.joined(separator: " "))")
            } catch {
                Self.outcomes[name] = .failure(error)
            }
        }
        return try XCTUnwrap(Self.outcomes[name]).get()
    }

    private func withVideo() async throws -> JanusInteropRun {
        try await run("video", peerArguments: ["--pattern", "ball"])
    }

    func test_browserDecodesPeerVideo_moreAndMoreFrames() async throws {
        let run = try await withVideo()
        let decoded = run.pageReceived(from: "confab-peer").compactMap { $0.number("framesDecoded") }
        XCTAssertGreaterThan(decoded.last ?? 0, 100, "the page decoded few of confab-peer's frames: \(decoded)\n\(run.chromiumLog.suffix(3000))")
        // Still arriving at the end, not a burst that stopped: each of the last seconds adds frames
        // (but the very last line, which may come as the peer leaves).
        let late = decoded.dropLast().suffix(5)
        XCTAssertEqual(late.count, 5, "few statistics lines from the page: \(decoded)")
        XCTAssertTrue(zip(late, late.dropFirst()).allSatisfy { $0 < $1 }, "the page's decoded count stalled: \(decoded)")
        let size = run.pageReceived(from: "confab-peer").last.map { ($0.number("width") ?? 0, $0.number("height") ?? 0) }
        XCTAssertEqual(size?.0, 640, "confab-peer's video arrived in the browser at \(String(describing: size))")
        XCTAssertEqual(size?.1, 360, "confab-peer's video arrived in the browser at \(String(describing: size))")
    }

    func test_peerReceivesBrowserVideo_atLeast20fps() async throws {
        let run = try await withVideo()
        XCTAssertNil(run.peer.error)
        XCTAssertEqual(run.peer.room, JanusInteropRun.room)
        let chromium = try XCTUnwrap(run.peer.media.remote.first { $0.userID == "chromium" },
                                     "confab-peer received nothing from the page; it saw: \(run.peer.media.remote.map(\.userID))")
        // The page sends its camera as captured however loaded the machine is (otherwise
        // Chromium lowers the resolution for the CPU's sake, as it did beside the UI suites).
        XCTAssertTrue(run.page.contains { $0.kind == "sender-parameters" && $0.fields["degradationPreference"] == "maintain-framerate-and-resolution" },
                      "the page could not keep its video's size and rate:\n\(run.chromiumLog.suffix(3000))")
        let late = chromium.samples.suffix(6)
        XCTAssertEqual(late.count, 6, "confab-peer has few samples of the page's feed")
        let meanFPS = late.compactMap(\.framesPerSecond).reduce(0, +) / Double(max(late.count, 1))
        XCTAssertGreaterThanOrEqual(meanFPS, 20, "confab-peer received the page at \(meanFPS) fps: \(late.map(\.framesPerSecond))")
        for sample in late {
            XCTAssertEqual(sample.width, 640, "the page's video at \(sample.at)")
            XCTAssertEqual(sample.height, 360, "the page's video at \(sample.at)")
        }
    }

    /// Joining overlaps its first round trips with building the pipelines (30–60 ms of the main
    /// thread): the publisher exists before the Janus session is waited for, not after.
    func test_peerJoin_buildsItsPipelinesWhileTheJanusConnectionOpens() async throws {
        let run = try await withVideo()
        let built = try XCTUnwrap(run.peerSteps.firstIndex(of: "publisher-built"), "no publisher-built step: \(run.peerSteps)")
        let connected = try XCTUnwrap(run.peerSteps.firstIndex(of: "janus-connected"), "no janus-connected step: \(run.peerSteps)")
        XCTAssertLessThan(built, connected, "the pipelines were built only once Janus was connected: \(run.peerSteps)")
    }

    func test_noProcessOfTheRunOutlivesIt() async throws {
        let run = try await withVideo()
        XCTAssertEqual(run.leftovers, [], "processes of the interop run still running")
    }

    /// The same run with the peer's camera off: the page joins, sends and receives nothing of
    /// the peer's video (were its count to grow here, it would not be measuring the peer).
    func test_peerWithCameraOff_browserDecodesNothing() async throws {
        let run = try await run("camera off", peerArguments: ["--pattern", "ball", "--join-camera-off"])
        XCTAssertTrue(run.page.contains { $0.kind == "joined" }, "the page never joined:\n\(run.chromiumLog.suffix(3000))")
        // It did subscribe to the peer: the connection came up, only no frames came.
        XCTAssertTrue(run.page.contains { $0.kind == "subscriber-webrtc" && $0.fields["display"] == "confab-peer" && $0.fields["up"] == "true" },
                      "the page never received from the peer at all:\n\(run.chromiumLog.suffix(3000))")
        XCTAssertGreaterThan(run.page.filter { $0.kind == "sent" }.compactMap { $0.number("framesEncoded") }.last ?? 0, 100,
                             "the page itself sent little video")
        let decoded = run.pageReceived(from: "confab-peer").compactMap { $0.number("framesDecoded") }
        XCTAssertEqual(decoded.max() ?? 0, 0, "the page decoded frames from a peer that sends none: \(decoded)")
        XCTAssertEqual(run.leftovers, [], "processes of the interop run still running")
    }
}
