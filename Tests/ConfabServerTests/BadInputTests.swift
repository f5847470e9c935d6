import ConfabProtocol
import Foundation
import XCTest

/// Bad frames get an error that names the problem; the connection and server stay up.
final class BadInputTests: ServerTestCase {
    private func assertStillServing(_ client: TestClient, file: StaticString = #filePath, line: UInt = #line) async throws {
        _ = try await client.send(HealthCheckRequest())
        let other = try await connect("someone-else")
        _ = try await other.send(HealthCheckRequest())
    }

    func test_malformedJSON_whenSent_answersMalformedJSONWithoutId_andConnectionStaysUp() async throws {
        let alice = try await connect("alice")
        let frame = try await alice.sendText("{\"kind\":\"request\",\"id\":\"1\",", expectingReplyTo: nil)
        let error = try TestClient.error(in: frame)
        XCTAssertNil(error.id)
        XCTAssertEqual(error.error.code, .malformedJSON)
        try await assertStillServing(alice)
    }

    func test_unknownRequestType_whenSent_answersUnknownRequestTypeNamingIt() async throws {
        let alice = try await connect("alice")
        let frame = try await alice.sendText(#"{"kind":"request","id":"7","type":"teleport","payload":{}}"#, expectingReplyTo: "7")
        let error = try TestClient.error(in: frame)
        XCTAssertEqual(error.error.code, .unknownRequestType)
        XCTAssertEqual(error.type, "teleport")
        XCTAssertTrue(error.error.message.contains("teleport"), error.error.message)
        try await assertStillServing(alice)
    }

    func test_frameOver64KiB_whenSent_answersMessageTooLarge_andConnectionStaysUp() async throws {
        let alice = try await connect("alice")
        let padding = String(repeating: "x", count: 70 * 1024)
        let frame = try await alice.sendText(
            #"{"kind":"request","id":"big","type":"getCall","payload":{"cid":"default:x","pad":"\#(padding)"}}"#,
            expectingReplyTo: nil)
        let error = try TestClient.error(in: frame)
        XCTAssertEqual(error.error.code, .messageTooLarge)
        XCTAssertTrue(error.error.message.contains("65536"), error.error.message)
        try await assertStillServing(alice)
    }

    func test_fieldOfWrongType_whenSent_answersInvalidRequestNamingTheField() async throws {
        let alice = try await connect("alice")
        let frame = try await alice.sendText(#"{"kind":"request","id":"3","type":"getCall","payload":{"cid":5}}"#, expectingReplyTo: "3")
        let error = try TestClient.error(in: frame)
        XCTAssertEqual(error.error.code, .invalidRequest)
        XCTAssertEqual(error.error.message, "payload.cid: expected a string")
        try await assertStillServing(alice)
    }

    func test_nestedFieldOfWrongType_whenSent_answersInvalidRequestWithItsPath() async throws {
        let alice = try await connect("alice")
        let frame = try await alice.sendText(
            #"{"kind":"request","id":"4","type":"getOrCreateCall","payload":{"cid":"default:x","members":[{"userId":"bob","role":"boss"}]}}"#,
            expectingReplyTo: "4")
        let error = try TestClient.error(in: frame)
        XCTAssertEqual(error.error.code, .invalidRequest)
        XCTAssertTrue(error.error.message.hasPrefix("payload.members[0].role"), error.error.message)
    }

    func test_customThatIsNotAnObject_whenSent_answersInvalidRequest() async throws {
        let alice = try await connect("alice")
        let frame = try await alice.sendText(
            #"{"kind":"request","id":"5","type":"getOrCreateCall","payload":{"cid":"default:x","custom":[1,2]}}"#,
            expectingReplyTo: "5")
        let error = try TestClient.error(in: frame)
        XCTAssertEqual(error.error.code, .invalidRequest)
        XCTAssertTrue(error.error.message.hasPrefix("payload.custom"), error.error.message)
    }

    func test_missingField_whenSent_answersInvalidRequestNamingIt() async throws {
        let alice = try await connect("alice")
        let frame = try await alice.sendText(#"{"kind":"request","id":"6","type":"kickUser","payload":{"cid":"default:x"}}"#, expectingReplyTo: "6")
        let error = try TestClient.error(in: frame)
        XCTAssertEqual(error.error.code, .invalidRequest)
        XCTAssertEqual(error.error.message, "missing field 'payload.userId'")
    }

    func test_frameWithoutId_whenSent_answersInvalidRequest() async throws {
        let alice = try await connect("alice")
        let frame = try await alice.sendText(#"{"kind":"request","type":"getCall","payload":{"cid":"default:x"}}"#, expectingReplyTo: nil)
        let error = try TestClient.error(in: frame)
        XCTAssertEqual(error.error.code, .invalidRequest)
        XCTAssertEqual(error.error.message, "missing field 'id'")
    }

    func test_jsonThatIsNotAnObject_whenSent_answersInvalidRequest() async throws {
        let alice = try await connect("alice")
        let frame = try await alice.sendText("[1,2,3]", expectingReplyTo: nil)
        XCTAssertEqual(try TestClient.error(in: frame).error.code, .invalidRequest)
        try await assertStillServing(alice)
    }

    func test_unknownCallType_inCid_answersInvalidRequestListingKnownTypes() async throws {
        let alice = try await connect("alice")
        let frame = try await alice.sendText(#"{"kind":"request","id":"8","type":"getCall","payload":{"cid":"livestream:x"}}"#, expectingReplyTo: "8")
        let error = try TestClient.error(in: frame)
        XCTAssertEqual(error.error.code, .invalidRequest)
        XCTAssertTrue(error.error.message.contains("unknown call type 'livestream'"), error.error.message)
    }

    func test_unknownCall_whenFetched_answersCallNotFound() async throws {
        let alice = try await connect("alice")
        let error = try await alice.sendExpectingError(GetCallRequest(cid: cid("default:nobody-made-this")))
        XCTAssertEqual(error.code, .callNotFound)
        XCTAssertTrue(error.message.contains("default:nobody-made-this"), error.message)
    }

    func test_everyCallRequest_onUnknownCall_answersCallNotFound() async throws {
        let alice = try await connect("alice")
        let missing = cid("default:missing")
        let errors: [ProtocolError] = [
            try await alice.sendExpectingError(JoinCallRequest(cid: missing)),
            try await alice.sendExpectingError(LeaveCallRequest(cid: missing)),
            try await alice.sendExpectingError(RingCallRequest(cid: missing)),
            try await alice.sendExpectingError(AcceptCallRequest(cid: missing)),
            try await alice.sendExpectingError(RejectCallRequest(cid: missing)),
            try await alice.sendExpectingError(EndCallRequest(cid: missing)),
            try await alice.sendExpectingError(UpdateCallRequest(cid: missing)),
            try await alice.sendExpectingError(AddMembersRequest(cid: missing, members: [MemberRequest(userId: "bob")])),
            try await alice.sendExpectingError(RemoveMembersRequest(cid: missing, userIds: ["bob"])),
            try await alice.sendExpectingError(BlockUserRequest(cid: missing, userId: "bob")),
            try await alice.sendExpectingError(UnblockUserRequest(cid: missing, userId: "bob")),
            try await alice.sendExpectingError(MuteUsersRequest(cid: missing, userIds: ["bob"])),
            try await alice.sendExpectingError(KickUserRequest(cid: missing, userId: "bob")),
            try await alice.sendExpectingError(PinForEveryoneRequest(cid: missing, userId: "bob", sessionId: "s")),
            try await alice.sendExpectingError(UnpinForEveryoneRequest(cid: missing, userId: "bob", sessionId: "s")),
            try await alice.sendExpectingError(StartRecordingRequest(cid: missing)),
            try await alice.sendExpectingError(StopRecordingRequest(cid: missing)),
        ]
        XCTAssertEqual(errors.map(\.code), Array(repeating: .callNotFound, count: errors.count))
    }

    func test_binaryFrameHoldingJSON_isReadLikeText() async throws {
        let alice = try await connect("alice")
        let error = try await alice.sendBinary(Array(#"{"kind":"request","id":"b","type":"getCall","payload":{"cid":"default:none"}}"#.utf8))
        XCTAssertEqual(error.id, "b")
        XCTAssertEqual(error.error.code, .callNotFound)
    }
}
