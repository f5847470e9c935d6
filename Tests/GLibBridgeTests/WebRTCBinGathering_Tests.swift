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
        GStreamer.initialize()
        let pipeline = try MediaPipeline(description:
            "webrtcbin name=webrtc bundle-policy=max-bundle videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=10/1 ! "
            + "vp8enc deadline=1 ! rtpvp8pay name=pay pt=96 ! application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000 ! webrtc.")
        let webrtc = try XCTUnwrap(pipeline.webRTCBin(named: "webrtc"))
        XCTAssertTrue(webrtc.restrictICE(to: address))
        try pipeline.play()
        XCTAssertTrue(MainLoop.iterate(until: { pipeline.hasNegotiated(element: "pay") }, timeout: 5), "nothing to offer")
        var described: Result<Void, MediaPipelineError>?
        Task { @MainActor in
            do throws(MediaPipelineError) {
                try await webrtc.setLocalDescription(.offer, sdp: try await webrtc.createOffer())
                described = .success(())
            } catch {
                described = .failure(error)
            }
        }
        XCTAssertTrue(MainLoop.iterate(until: { described != nil }, timeout: 10), "no offer")
        try described?.get()
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
