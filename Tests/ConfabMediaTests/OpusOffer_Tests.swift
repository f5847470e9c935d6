@testable import ConfabMedia
import XCTest

/// The Opus parameters added to our offer: FEC and DTX, whatever webrtcbin wrote for Opus.
final class OpusOffer_Tests: XCTestCase {
    private static let rtpmap = "a=rtpmap:111 OPUS/48000/2"

    func test_offerWithoutFmtp_getsOneAfterTheRtpmap() {
        let sdp = ["v=0", "m=audio 9 UDP/TLS/RTP/SAVPF 111", Self.rtpmap, "a=sendonly", ""].joined(separator: "\r\n")
        let lines = OpusOffer.addingParameters(to: sdp, payloadType: 111).components(separatedBy: "\r\n")
        XCTAssertEqual(lines, ["v=0", "m=audio 9 UDP/TLS/RTP/SAVPF 111", Self.rtpmap, "a=fmtp:111 useinbandfec=1;usedtx=1", "a=sendonly", ""])
    }

    func test_existingFmtp_isExtended_notDuplicated() {
        let sdp = [Self.rtpmap, "a=fmtp:111 sprop-stereo=0;usedtx=0"].joined(separator: "\r\n")
        let result = OpusOffer.addingParameters(to: sdp, payloadType: 111)
        // A parameter webrtcbin already wrote keeps its value; only the missing one is added.
        XCTAssertEqual(result, [Self.rtpmap, "a=fmtp:111 sprop-stereo=0;usedtx=0;useinbandfec=1"].joined(separator: "\r\n"))
    }

    func test_otherPayloadTypes_areLeftAlone() {
        let sdp = ["a=rtpmap:96 VP8/90000", "a=fmtp:96 max-fs=12288"].joined(separator: "\n")
        XCTAssertEqual(OpusOffer.addingParameters(to: sdp, payloadType: 111), sdp)
    }
}
