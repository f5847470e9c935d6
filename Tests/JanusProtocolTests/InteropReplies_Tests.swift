import JanusProtocol
import XCTest

/// What confab-peer received from Janus in a real call with a browser (CapturedReplies'
/// interop frames): a publisher's join and publish, a subscription to the browser's feed.
final class InteropReplies_Tests: XCTestCase {
    func test_publisherJoinAndPublish() throws {
        let joined = try JanusReply.decode(CapturedReplies.peerJoined).pluginAnswer().data
        XCTAssertEqual(joined.kind, .joined)
        XCTAssertEqual(joined.id, 761_796_240_768_973)
        XCTAssertEqual(joined.privateID, 1_123_175_414)
        let configured = try JanusReply.decode(CapturedReplies.publishConfigured)
        XCTAssertEqual(configured.transaction, "t4")
        let (data, jsep) = try configured.pluginAnswer()
        XCTAssertEqual(data.configured, "ok")
        XCTAssertEqual(jsep?.type, .answer)
        XCTAssertTrue(jsep?.sdp.hasPrefix("v=0\r\n") == true, jsep?.sdp.prefix(40).description ?? "no sdp")
    }

    func test_peerConnectionUpAndMediaFlowing() throws {
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.webrtcUp), .webrtcUp(sender: 5_256_097_490_087_702))
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.mediaVideoReceiving), .media(sender: 5_256_097_490_087_702, type: "video", receiving: true))
    }

    func test_browserPublishes_thenIsSubscribed() throws {
        let arrived = try JanusReply.decode(CapturedReplies.publisherArrived)
        XCTAssertNil(arrived.transaction, "news about the room answers no request")
        XCTAssertEqual(arrived.sender, 5_256_097_490_087_702)
        XCTAssertEqual(try arrived.pluginAnswer().data.publishers, [.init(id: 1_592_478_342_030_981, display: "chromium")])

        let (attached, offer) = try JanusReply.decode(CapturedReplies.subscriberAttached).pluginAnswer()
        XCTAssertEqual(attached.kind, .attached)
        XCTAssertEqual(offer?.type, .offer)
        XCTAssertEqual(attached.streams?.map(\.type), ["audio", "video"])
        XCTAssertEqual(attached.streams?.first { $0.type == "video" }?.mid, "1")
        XCTAssertEqual(Set(attached.streams?.compactMap(\.feed) ?? []), [1_592_478_342_030_981])

        XCTAssertEqual(try JanusReply.decode(CapturedReplies.subscriptionStarted).pluginAnswer().data.started, "ok")
    }
}
