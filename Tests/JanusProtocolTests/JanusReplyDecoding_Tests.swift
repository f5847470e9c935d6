import JanusProtocol
import XCTest

/// Frames Janus really sent (CapturedReplies) read into typed replies, ids exact above 2^53.
final class JanusReplyDecoding_Tests: XCTestCase {
    private let room = CapturedReplies.bigRoom

    func test_createAndAttach_giveTheNewIds() throws {
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.createSession), .success(transaction: "c1", result: .created(id: 8_753_223_781_235_187)))
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.attach).createdID(), 6_399_328_291_526_635)
    }

    func test_acks_serverInfo_detach() throws {
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.keepaliveAck), .ack(transaction: "k1"))
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.serverInfo),
                       .serverInfo(transaction: "i1", name: "Janus WebRTC Server", version: "1.1.2"))
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.detachSuccess), .success(transaction: "dt", result: .done))
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.detached), .detached(sender: 6_590_665_239_260_030))
    }

    func test_roomAnswers_keepTheRoomAbove2to53Exact() throws {
        let created = try JanusReply.decode(CapturedReplies.roomCreated).pluginAnswer().data
        XCTAssertEqual(created.kind, .created)
        XCTAssertEqual(created.room, room)
        let exists = try JanusReply.decode(CapturedReplies.roomExists).pluginAnswer().data
        XCTAssertEqual(exists.kind, .success)
        XCTAssertEqual(exists.exists, true)
        XCTAssertEqual(exists.room, room)
        let destroyed = try JanusReply.decode(CapturedReplies.roomDestroyed).pluginAnswer().data
        XCTAssertEqual(destroyed.kind, .destroyed)
        XCTAssertEqual(destroyed.room, room)
    }

    func test_joined_givesOurIdsAndTheRoomsPublishers() throws {
        let reply = try JanusReply.decode(CapturedReplies.joined)
        guard case .event(let transaction, let sender, let data, let jsep) = reply else { return XCTFail("\(reply)") }
        XCTAssertEqual(transaction, "j1")
        XCTAssertEqual(sender, 6_399_328_291_526_635)
        XCTAssertNil(jsep)
        XCTAssertEqual(data.kind, .joined)
        XCTAssertEqual(data.room, room)
        XCTAssertEqual(data.id, 2_808_166_589_616_574)
        XCTAssertEqual(data.privateID, 3_217_757_155)
        XCTAssertEqual(data.publishers, [])
    }

    func test_participants_listsEveryoneWithPublisherFlag() throws {
        let data = try JanusReply.decode(CapturedReplies.participants).pluginAnswer().data
        XCTAssertEqual(data.kind, .participants)
        XCTAssertEqual(data.participants, [.init(id: 2_808_166_589_616_574, display: "alice", publisher: false, talking: nil)])
    }

    func test_leavingOk_isAboutOurselves() throws {
        let data = try JanusReply.decode(CapturedReplies.leftOurselves).pluginAnswer().data
        XCTAssertEqual(data.leaving, .ourselves)
    }

    func test_roomEvents_publishersUnpublishedTalking() throws {
        let publishers = try JanusReply.decode(#"{"janus":"event","session_id":1,"sender":2,"plugindata":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"event","room":9007199254741003,"publishers":[{"id":18446744073709551615,"display":"chromium","audio_codec":"opus","video_codec":"vp8","streams":[{"type":"video","mindex":1,"mid":"1","codec":"vp8"}],"talking":false}]}}}"#)
        XCTAssertEqual(publishers, .event(transaction: nil, sender: 2, data: {
            var data = VideoRoomResponse(kind: .event)
            data.room = room
            data.publishers = [.init(id: 18_446_744_073_709_551_615, display: "chromium", talking: false)]
            return data
        }(), jsep: nil))
        let gone = try JanusReply.decode(#"{"janus":"event","session_id":1,"sender":2,"plugindata":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"event","room":5,"unpublished":9007199254740993}}}"#)
        XCTAssertEqual(try gone.pluginAnswer().data.unpublished, .feed(9_007_199_254_740_993))
        let talking = try JanusReply.decode(#"{"janus":"event","session_id":1,"sender":2,"plugindata":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"talking","room":5,"id":9007199254740993,"mindex":1,"mid":"1","audio-level-dBov-avg":-32.5}}}"#)
        XCTAssertEqual(try talking.pluginAnswer().data.kind, .talking)
        XCTAssertEqual(try talking.pluginAnswer().data.id, 9_007_199_254_740_993)
    }

    func test_subscriberAttached_withOffer() throws {
        let reply = try JanusReply.decode(#"{"janus":"event","session_id":1,"transaction":"t9","sender":2,"plugindata":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"attached","room":5,"streams":[{"type":"audio","active":true,"mindex":0,"mid":"0","ready":false,"send":true,"feed_id":9007199254740993,"feed_display":"chromium","feed_mid":"0"},{"type":"video","active":true,"mindex":1,"mid":"1","ready":false,"send":true,"feed_id":9007199254740993,"feed_mid":"1"}]}},"jsep":{"type":"offer","sdp":"v=0\r\n"}}"#)
        let (data, jsep) = try reply.pluginAnswer()
        XCTAssertEqual(jsep, .offer("v=0\r\n"))
        XCTAssertEqual(data.kind, .attached)
        XCTAssertEqual(data.streams?.first { $0.type == "video" }?.mid, "1")
        XCTAssertEqual(data.streams?.map(\.feed), [9_007_199_254_740_993, 9_007_199_254_740_993])
    }

    func test_peerConnectionNews_webrtcupMediaSlowlinkHangupTimeout() throws {
        XCTAssertEqual(try JanusReply.decode(#"{"janus":"webrtcup","session_id":1,"sender":9007199254740993}"#), .webrtcUp(sender: 9_007_199_254_740_993))
        XCTAssertEqual(try JanusReply.decode(#"{"janus":"media","session_id":1,"sender":2,"mid":"1","type":"video","receiving":true}"#),
                       .media(sender: 2, type: "video", receiving: true))
        XCTAssertEqual(try JanusReply.decode(#"{"janus":"slowlink","session_id":1,"sender":2,"mid":"1","media":"video","uplink":true,"lost":12}"#),
                       .slowLink(sender: 2, uplink: true, lost: 12))
        XCTAssertEqual(try JanusReply.decode(#"{"janus":"hangup","session_id":1,"sender":2,"reason":"DTLS alert"}"#),
                       .hangup(sender: 2, reason: "DTLS alert"))
        XCTAssertEqual(try JanusReply.decode(#"{"janus":"timeout","session_id":18446744073709551615}"#), .timeout(session: 18_446_744_073_709_551_615))
    }

    // MARK: What a waiting request makes of a reply

    func test_outcome_ackWaitsForPluginRequests_butAnswersKeepalive() throws {
        let ack = try JanusReply.decode(CapturedReplies.joinAck)
        XCTAssertEqual(ack.outcome(for: .message(session: 1, handle: 2, body: .joinPublisher(room: 1, token: nil, display: nil))), .waiting)
        XCTAssertEqual(ack.outcome(for: .keepalive(session: 1)), .answered(ack))
    }

    func test_outcome_refusalsBecomeTypedErrors() throws {
        let command = JanusCommand.message(session: 1, handle: 2, body: .exists(room: 1))
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.roomAlreadyExists).outcome(for: command),
                       .failed(.pluginRefused(code: JanusError.roomExists, reason: "Room 9007199254741003 already exists")))
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.noSuchRoom).outcome(for: command),
                       .failed(.pluginRefused(code: JanusError.noSuchRoom, reason: "No such room (42)")))
        XCTAssertEqual(try JanusReply.decode(CapturedReplies.noSuchHandle).outcome(for: command),
                       .failed(.refused(code: 459, reason: "No such handle 12345 in session 8753223781235187")))
    }

    func test_answerWithoutWhatTheRequestNeeds_isUnexpectedReply() throws {
        XCTAssertThrowsError(try JanusReply.decode(CapturedReplies.keepaliveAck).createdID()) {
            XCTAssertEqual($0 as? JanusError, .unexpectedReply("no id in the answer"))
        }
        XCTAssertThrowsError(try JanusReply.decode(CapturedReplies.createSession).pluginAnswer())
    }
}
