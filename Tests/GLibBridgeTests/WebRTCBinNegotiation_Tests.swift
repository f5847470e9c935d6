import ConfabTestSupport
import Foundation
@testable import GLibBridge
import XCTest

/// `WebRTCBin.answer` and `offer`: each negotiation step runs from the reply to the one before,
/// on webrtcbin's own thread, so a main thread busy with the call page's first paints (as it
/// is while a call is joined) holds none of them back.
final class WebRTCBinNegotiation_Tests: XCTestCase {
    override func setUp() { MainActorMainLoopBridge.install() }
    override func tearDown() { MainActorMainLoopBridge.uninstall() }

    @MainActor
    private func receiver() throws -> (MediaPipeline, WebRTCBin) {
        let pipeline = try MediaPipeline(description: "webrtcbin name=webrtc bundle-policy=max-bundle")
        let webrtc = try XCTUnwrap(pipeline.webRTCBin(named: "webrtc"))
        try pipeline.play()
        return (pipeline, webrtc)
    }

    func test_answer_isCreatedAdjustedAndSet_whileTheMainThreadIsBusy() throws { try onMain {
        let sender = try offeredSendOnlyVP8Connection(settingLocalDescription: true)
        defer { sender.pipeline.stop() }
        let (pipeline, webrtc) = try receiver()
        defer { pipeline.stop() }
        var answered: Result<String, MediaPipelineError>?
        Task { @MainActor in
            do throws(MediaPipelineError) {
                let answer = try await webrtc.answer(sender.offer) { $0.replacing("a=setup:active", with: "a=setup:passive") }
                answered = .success(answer)
            } catch {
                answered = .failure(error)
            }
        }
        // The first step is taken from the main actor; from then on the main thread is held, as
        // a long paint would hold it. Step by step from the main actor, the answer would be made
        // and set only once it is free again.
        XCTAssertTrue(MainLoop.iterate(until: { webrtc.remoteDescription != nil }, timeout: 5), "the offer was not set")
        let busyUntil = Date().addingTimeInterval(2)
        while Date() < busyUntil, webrtc.localDescription == nil { usleep(5_000) }
        let setMeanwhile = try XCTUnwrap(webrtc.localDescription, "the answer was not set while the main thread was busy")
        XCTAssertTrue(setMeanwhile.contains("a=setup:passive"), "the answer set is not the adjusted one:\n\(setMeanwhile)")
        XCTAssertFalse(setMeanwhile.contains("a=setup:active"))

        XCTAssertTrue(MainLoop.iterate(until: { answered != nil }, timeout: 5), "no answer returned")
        let answer = try XCTUnwrap(answered).get()
        XCTAssertEqual(Self.lines(answer), Self.lines(setMeanwhile), "what is returned is what was set")
    } }

    func test_offer_isAdjustedAndSet() throws { try onMain {
        GStreamer.initialize()
        let pipeline = try MediaPipeline(description:
            "webrtcbin name=webrtc bundle-policy=max-bundle audiotestsrc is-live=true ! opusenc ! rtpopuspay name=pay pt=111 ! "
            + "application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000 ! webrtc.")
        defer { pipeline.stop() }
        let webrtc = try XCTUnwrap(pipeline.webRTCBin(named: "webrtc"))
        try pipeline.play()
        XCTAssertTrue(MainLoop.iterate(until: { pipeline.hasNegotiated(element: "pay") }, timeout: 5), "nothing to offer")
        var offered: Result<String, MediaPipelineError>?
        Task { @MainActor in
            do throws(MediaPipelineError) {
                offered = .success(try await webrtc.offer { $0 + "a=confab-test:1\r\n" })
            } catch {
                offered = .failure(error)
            }
        }
        XCTAssertTrue(MainLoop.iterate(until: { offered != nil }, timeout: 5), "no offer")
        let offer = try XCTUnwrap(offered).get()
        XCTAssertTrue(offer.contains("a=confab-test:1"))
        XCTAssertEqual(Self.lines(try XCTUnwrap(webrtc.localDescription)), Self.lines(offer))
    } }

    func test_anOfferWebRTCBinRefuses_failsWithItsReason_andSetsNothing() throws { try onMain {
        GStreamer.initialize()
        let (pipeline, webrtc) = try receiver()
        defer { pipeline.stop() }
        var answered: Result<String, MediaPipelineError>?
        Task { @MainActor in
            do throws(MediaPipelineError) {
                // A media section without ICE credentials: webrtcbin refuses it.
                let offer = "v=0\r\no=- 1 0 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\n"
                    + "a=mid:0\r\na=sendonly\r\na=rtpmap:111 OPUS/48000/2\r\n"
                answered = .success(try await webrtc.answer(offer) { $0 })
            } catch {
                answered = .failure(error)
            }
        }
        XCTAssertTrue(MainLoop.iterate(until: { answered != nil }, timeout: 5), "no reply")
        guard case .failure(let error) = try XCTUnwrap(answered) else { return XCTFail("an answer to no offer") }
        XCTAssertTrue(error.description.contains("set-remote-description failed"), error.description)
        XCTAssertNil(webrtc.localDescription)
    } }

    /// The description's lines but its candidates: webrtcbin adds each local candidate to the
    /// description it holds as it is gathered.
    private static func lines(_ sdp: String) -> [String] {
        sdp.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("a=candidate:") && $0 != "a=end-of-candidates" }
    }
}
