import Foundation
@testable import GLibBridge
import XCTest

/// A playing send-only VP8 connection (test pattern, 64x48) with its offer made, for the tests
/// that look at what webrtcbin offers or gathers.
@MainActor
func offeredSendOnlyVP8Connection(restrictedTo address: String? = nil, settingLocalDescription: Bool = false)
    throws -> (pipeline: MediaPipeline, webrtc: WebRTCBin, offer: String) {
    GStreamer.initialize()
    let pipeline = try MediaPipeline(description:
        "webrtcbin name=webrtc bundle-policy=max-bundle videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=10/1 ! "
        + "vp8enc deadline=1 ! rtpvp8pay name=pay pt=96 ! application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000 ! webrtc.")
    let webrtc = try XCTUnwrap(pipeline.webRTCBin(named: "webrtc"))
    if let address { XCTAssertTrue(webrtc.restrictICE(to: address)) }
    try pipeline.play()
    XCTAssertTrue(MainLoop.iterate(until: { pipeline.hasNegotiated(element: "pay") }, timeout: 5), "nothing to offer")
    var offered: Result<String, MediaPipelineError>?
    Task { @MainActor in
        do throws(MediaPipelineError) {
            offered = .success(settingLocalDescription ? try await webrtc.offer { $0 } : try await webrtc.createOffer())
        } catch {
            offered = .failure(error)
        }
    }
    XCTAssertTrue(MainLoop.iterate(until: { offered != nil }, timeout: 10), "no offer")
    return (pipeline, webrtc, try XCTUnwrap(offered).get())
}
