import Foundation
import XCTest

/// Turning the camera off and on in a call, through a real Janus in a throwaway network
/// namespace: alice (red) turns her camera off 3 s into the call and on again 6 s in; bob
/// (green) watches. Off must stop the video for bob *and* close alice's camera device (its
/// light goes off); on must bring her video back to bob quickly, with her colour.
final class CameraToggle_EndToEndTests: XCTestCase {
    private static let call = "default:camera-e2e"
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: [
            "join", call, "--create", "--duration", "10", "--color", "FF0000", "--tone", "440",
            "--camera-off-after", "3", "--camera-on-after", "6"]),
        MediaCall.Peer(user: "bob", joinsAfter: 0, arguments: [
            "join", call, "--create", "--duration", "10", "--color", "00FF00", "--tone", "660"]),
    ]
    private static var outcome: Result<[String: MediaPeerReport], any Error>?

    private var reports: [String: MediaPeerReport] = [:]

    override func setUp() async throws {
        if let reason = MediaCall.namespaceUnavailableReason() {
            throw XCTSkip("camera end-to-end tests need a network namespace: \(reason)")
        }
        if Self.outcome == nil {
            do {
                let reports = try await MediaCall(peers: Self.peers).run()
                Self.outcome = .success(reports)
                Self.printSummary(reports)
            } catch {
                Self.outcome = .failure(error)
            }
        }
        reports = try XCTUnwrap(Self.outcome).get()
    }

    func test_cameraOff_closesTheDevice_cameraOn_opensItAgain() throws {
        let (off, on) = try alicesCameraChanges()
        XCTAssertEqual(off.deviceOpenAfter, false, "alice's camera device stayed open with her camera off")
        XCTAssertEqual(on.deviceOpenAfter, true, "alice's camera device did not open again when she turned it on")
    }

    func test_cameraOff_bobStopsReceivingAlicesVideo() throws {
        let (off, on) = try alicesCameraChanges()
        let received = try XCTUnwrap(reports["bob"]?.received(from: "alice"), "bob received nothing from alice")
        let lost = try XCTUnwrap(received.changes.first { $0.at > off.at && !$0.hasVideo }, "bob never saw alice's video stop")
        // Video counts as stopped 1.5 s after the last frame, checked once a second: at most ~2.5 s.
        XCTAssertLessThanOrEqual(lost.at.timeIntervalSince(off.at), 3, "bob saw alice's video stop late")
        let framesSoonAfterOff = try XCTUnwrap(received.frames(at: off.at.addingTimeInterval(1)))
        let framesAtOn = try XCTUnwrap(received.frames(at: on.at))
        XCTAssertLessThanOrEqual(framesAtOn - framesSoonAfterOff, 1, "bob went on decoding alice's video while her camera was off")
    }

    func test_cameraOn_bobSeesAlicesVideoAgainInHerColour() throws {
        let (_, on) = try alicesCameraChanges()
        let received = try XCTUnwrap(reports["bob"]?.received(from: "alice"), "bob received nothing from alice")
        let back = try XCTUnwrap(received.changes.first { $0.at > on.at && $0.hasVideo }, "bob never saw alice's video again")
        XCTAssertLessThanOrEqual(back.at.timeIntervalSince(on.at), 2.5, "alice's video came back late")
        let framesAtOn = try XCTUnwrap(received.frames(at: on.at))
        XCTAssertGreaterThan(received.framesReceived - framesAtOn, 40, "bob decoded few frames from alice after she turned her camera on")
        let color = try XCTUnwrap(received.centerPixel)
        XCTAssertTrue(color.matches(hex: "FF0000", tolerance: 24), "bob's last frame from alice is \(color), expected red")
    }

    private func alicesCameraChanges() throws -> (off: MediaPeerReport.Media.CameraChange, on: MediaPeerReport.Media.CameraChange) {
        let changes = try XCTUnwrap(reports["alice"]?.media?.camera, "alice's report has no camera changes")
        let off = try XCTUnwrap(changes.first { !$0.on }, "alice never turned her camera off")
        let on = try XCTUnwrap(changes.first { $0.on }, "alice never turned her camera on again")
        return (off, on)
    }

    private static func printSummary(_ reports: [String: MediaPeerReport]) {
        guard let changes = reports["alice"]?.media?.camera, let received = reports["bob"]?.received(from: "alice") else { return }
        for change in changes {
            let seen = received.changes.first { $0.at > change.at && $0.hasVideo == change.on }
            print("camera: alice turned her camera \(change.on ? "on" : "off"); bob saw it after "
                + "\(seen.map { String(format: "%.2f s", $0.at.timeIntervalSince(change.at)) } ?? "-")")
        }
    }
}
