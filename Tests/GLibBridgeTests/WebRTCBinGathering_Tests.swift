import ConfabTestSupport
import Foundation
@testable import GLibBridge
import XCTest

/// How a connection tells that it was made while the network was away (issue 14): ICE
/// gathering completes with no local candidate at all. The call replaces such a connection as
/// soon as the network comes back, and only such a one.
final class WebRTCBinGathering_Tests: XCTestCase {
    override func setUp() { MainActorMainLoopBridge.install() }
    override func tearDown() { MainActorMainLoopBridge.uninstall() }

    /// A send-only VP8 connection restricted to `address`, offered and set as local
    /// description; returns it once gathering completed (or the timeout passed).
    @MainActor
    private func offered(restrictedTo address: String) throws -> (MediaPipeline, WebRTCBin) {
        let (pipeline, webrtc, _) = try offeredSendOnlyVP8Connection(restrictedTo: address, settingLocalDescription: true)
        MainLoop.iterate(until: { webrtc.iceGatheringState == .complete }, timeout: 5)
        return (pipeline, webrtc)
    }

    func test_offerOnAnAddressThatIsGone_gatheringCompletes_withNoCandidate() throws { try onMain {
        // 10.98.0.254 is no address of this machine (nor of the test namespaces).
        let (pipeline, webrtc) = try offered(restrictedTo: "10.98.0.254")
        defer { pipeline.stop() }
        XCTAssertEqual(webrtc.iceGatheringState, .complete)
        // (libnice still offers an active TCP candidate on it, which needs no socket; it is not
        // counted. Nothing comes later either.)
        MainLoop.iterate(until: { false }, timeout: 0.3)
        XCTAssertEqual(webrtc.localCandidatesGathered, 0)
    } }

    func test_offerOnAnAddressThatExists_gathersCandidates() throws { try onMain {
        let (pipeline, webrtc) = try offered(restrictedTo: "127.0.0.1")
        defer { pipeline.stop() }
        XCTAssertEqual(webrtc.iceGatheringState, .complete)
        XCTAssertGreaterThan(webrtc.localCandidatesGathered, 0)
    } }

    func test_candidateLines_onlyThoseWithASocketCount() {
        XCTAssertTrue(ICECandidateLine("candidate:1 1 UDP 2015364095 10.98.0.2 52084 typ host").hasSocket)
        XCTAssertTrue(ICECandidateLine("candidate:3 1 TCP 1010828287 10.98.0.2 37323 typ host tcptype passive").hasSocket)
        XCTAssertFalse(ICECandidateLine("candidate:2 1 TCP 1015023103 10.98.0.254 9 typ host tcptype active").hasSocket)
        XCTAssertFalse(ICECandidateLine("").hasSocket)
    }
}
