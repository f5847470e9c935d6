import JanusProtocol
import XCTest

/// What Janus reads: each request's frame, byte for byte (keys sorted), with Janus's field names
/// (janus.c and janus_videoroom.c, Janus 1.1) and ids written as exact integers.
final class JanusRequestEncoding_Tests: XCTestCase {
    /// 2^53 + 11 (a `Double` holds only even numbers there) and 2^64 - 1.
    private let bigRoom: UInt64 = 9_007_199_254_741_003
    private let session: UInt64 = 18_446_744_073_709_551_615
    private let handle: UInt64 = 9_007_199_254_740_993

    private func frame(_ command: JanusCommand, transaction: String = "t1") throws -> String {
        try JanusRequest(transaction: transaction, command: command).text()
    }

    private func message(_ body: VideoRoomRequest, jsep: JSEP? = nil) throws -> String {
        try frame(.message(session: session, handle: handle, body: body, jsep: jsep))
    }

    /// The envelope of a message on our handle, around `body` (and `jsep`).
    private func envelope(body: String, jsep: String? = nil) -> String {
        #"{"body":\#(body),"handle_id":9007199254740993,"janus":"message","# + (jsep.map { #""jsep":\#($0),"# } ?? "")
            + #""session_id":18446744073709551615,"transaction":"t1"}"#
    }

    // MARK: Core requests

    func test_coreRequests_carryTheirNameTransactionAndExactIds() throws {
        XCTAssertEqual(try frame(.createSession, transaction: "confab-7"), #"{"janus":"create","transaction":"confab-7"}"#)
        XCTAssertEqual(try frame(.info), #"{"janus":"info","transaction":"t1"}"#)
        XCTAssertEqual(try frame(.attach(session: session, plugin: .videoRoom)),
                       #"{"janus":"attach","plugin":"janus.plugin.videoroom","session_id":18446744073709551615,"transaction":"t1"}"#)
        XCTAssertEqual(try frame(.keepalive(session: session)),
                       #"{"janus":"keepalive","session_id":18446744073709551615,"transaction":"t1"}"#)
        XCTAssertEqual(try frame(.destroySession(session: session)),
                       #"{"janus":"destroy","session_id":18446744073709551615,"transaction":"t1"}"#)
        XCTAssertEqual(try frame(.detach(session: session, handle: handle)),
                       #"{"handle_id":9007199254740993,"janus":"detach","session_id":18446744073709551615,"transaction":"t1"}"#)
    }

    func test_trickle_sendsCandidateWithMLineIndex_andCompletedAtTheEnd() throws {
        XCTAssertEqual(try frame(.trickle(session: session, handle: handle, candidate: .candidate(mlineIndex: 1, sdp: "candidate:1 1 UDP 2 10.98.0.1 5000 typ host"))),
                       #"{"candidate":{"candidate":"candidate:1 1 UDP 2 10.98.0.1 5000 typ host","sdpMLineIndex":1},"handle_id":9007199254740993,"janus":"trickle","session_id":18446744073709551615,"transaction":"t1"}"#)
        XCTAssertEqual(try frame(.trickle(session: session, handle: handle, candidate: .completed)),
                       #"{"candidate":{"completed":true},"handle_id":9007199254740993,"janus":"trickle","session_id":18446744073709551615,"transaction":"t1"}"#)
    }

    func test_onlyKeepaliveAndTrickle_areAnsweredByAck() {
        XCTAssertTrue(JanusCommand.keepalive(session: 1).isAnsweredByAck)
        XCTAssertTrue(JanusCommand.trickle(session: 1, handle: 2, candidate: .completed).isAnsweredByAck)
        XCTAssertFalse(JanusCommand.message(session: 1, handle: 2, body: .publish).isAnsweredByAck)
        XCTAssertFalse(JanusCommand.createSession.isAnsweredByAck)
    }

    // MARK: Participant requests

    func test_joinPublisher_roomAbove2to53_isWrittenExactly() throws {
        XCTAssertEqual(try message(.joinPublisher(room: bigRoom, token: "tok", display: "alice|s1")),
                       envelope(body: #"{"display":"alice|s1","ptype":"publisher","request":"join","room":9007199254741003,"token":"tok"}"#))
        // Without token and display (a plain room): the fields are left out, not null.
        XCTAssertEqual(try message(.joinPublisher(room: 1234, token: nil, display: nil)),
                       envelope(body: #"{"ptype":"publisher","request":"join","room":1234}"#))
    }

    func test_joinSubscriber_namesFeedsAndPrivateID() throws {
        XCTAssertEqual(try message(.joinSubscriber(room: bigRoom, token: "tok", privateID: 3_217_757_155, feeds: [18_446_744_073_709_551_614])),
                       envelope(body: #"{"private_id":3217757155,"ptype":"subscriber","request":"join","room":9007199254741003,"#
                                + #""streams":[{"feed":18446744073709551614}],"token":"tok"}"#))
    }

    func test_publishAndStart_carryTheSDPBesideTheBody() throws {
        XCTAssertEqual(try message(.publish, jsep: .offer("v=0\r\n")),
                       envelope(body: #"{"request":"publish"}"#, jsep: #"{"sdp":"v=0\r\n","type":"offer"}"#))
        XCTAssertEqual(try message(.start, jsep: .answer("v=0\r\n")),
                       envelope(body: #"{"request":"start"}"#, jsep: #"{"sdp":"v=0\r\n","type":"answer"}"#))
    }

    func test_simpleParticipantRequests() throws {
        XCTAssertEqual(try message(.unpublish), envelope(body: #"{"request":"unpublish"}"#))
        XCTAssertEqual(try message(.leave), envelope(body: #"{"request":"leave"}"#))
        XCTAssertEqual(try message(.configureSubscription([.init(mid: "1", send: true)])),
                       envelope(body: #"{"request":"configure","streams":[{"mid":"1","send":true}]}"#))
    }

    // MARK: Room requests

    func test_create_writesEveryOptionGiven_andOnlyThose() throws {
        let options = VideoRoomOptions(description: "default:standup", secret: "s", adminKey: "k", isPrivate: true, permanent: false,
                                       publishers: 16, audioCodec: "opus", videoCodec: "vp8", audioLevelExtension: true,
                                       audioLevelEvent: true, audioActivePackets: 50, audioLevelAverage: 40, allowed: ["tok"],
                                       requirePrivateID: true, notifyJoining: true)
        XCTAssertEqual(try message(.create(room: bigRoom, options: options)), envelope(body:
            #"{"admin_key":"k","allowed":["tok"],"audio_active_packets":50,"audio_level_average":40,"audiocodec":"opus","#
            + #""audiolevel_event":true,"audiolevel_ext":true,"description":"default:standup","is_private":true,"notify_joining":true,"#
            + #""permanent":false,"publishers":16,"request":"create","require_pvtid":true,"room":9007199254741003,"secret":"s","videocodec":"vp8"}"#))
        XCTAssertEqual(try message(.create(room: 7, options: VideoRoomOptions(publishers: 4))),
                       envelope(body: #"{"publishers":4,"request":"create","room":7}"#))
    }

    func test_roomAdministration() throws {
        XCTAssertEqual(try message(.exists(room: bigRoom)), envelope(body: #"{"request":"exists","room":9007199254741003}"#))
        XCTAssertEqual(try message(.listParticipants(room: bigRoom)), envelope(body: #"{"request":"listparticipants","room":9007199254741003}"#))
        XCTAssertEqual(try message(.destroy(room: bigRoom, secret: "s", permanent: false)),
                       envelope(body: #"{"permanent":false,"request":"destroy","room":9007199254741003,"secret":"s"}"#))
        XCTAssertEqual(try message(.kick(room: bigRoom, secret: "s", participant: 18_446_744_073_709_551_615)),
                       envelope(body: #"{"id":18446744073709551615,"request":"kick","room":9007199254741003,"secret":"s"}"#))
        XCTAssertEqual(try message(.allowed(room: 5, secret: "s", action: .add, tokens: ["a", "b"])),
                       envelope(body: #"{"action":"add","allowed":["a","b"],"request":"allowed","room":5,"secret":"s"}"#))
        XCTAssertEqual(try message(.editRecordingFolder(room: 5, secret: "s", folder: "/tmp/rec")),
                       envelope(body: #"{"new_rec_dir":"/tmp/rec","request":"edit","room":5,"secret":"s"}"#))
        XCTAssertEqual(try message(.enableRecording(room: 5, secret: "s", record: true)),
                       envelope(body: #"{"record":true,"request":"enable_recording","room":5,"secret":"s"}"#))
    }

    func test_rtpForwarding_perStreamByMid() throws {
        XCTAssertEqual(try message(.rtpForward(room: 5, publisher: bigRoom, secret: "s", adminKey: "k", host: "127.0.0.1",
                                               streams: [.init(mid: "video0", port: 5004), .init(mid: "audio1", port: 5006)])),
                       envelope(body: #"{"admin_key":"k","host":"127.0.0.1","publisher_id":9007199254741003,"request":"rtp_forward","room":5,"#
                                + #""secret":"s","streams":[{"mid":"video0","port":5004},{"mid":"audio1","port":5006}]}"#))
        XCTAssertEqual(try message(.stopRTPForward(room: 5, publisher: 6, stream: 18_446_744_073_709_551_615, secret: "s", adminKey: nil)),
                       envelope(body: #"{"publisher_id":6,"request":"stop_rtp_forward","room":5,"secret":"s","stream_id":18446744073709551615}"#))
    }
}
