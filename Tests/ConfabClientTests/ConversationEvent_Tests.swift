@testable import ConfabClient
import ConfabProtocol
import Foundation
import XCTest

/// Issue 18's events as the coordinator sends them, decoded into typed `ServerEvent`s; a
/// reaction outside the fixed set is refused, not shown.
final class ConversationEvent_Tests: XCTestCase {
    private func event(_ type: String, _ payload: String) throws -> ServerEvent {
        let text = #"{"kind":"event","type":""# + type + #"","payload":"# + payload + "}"
        guard case .event(let event) = try InboundFrame.decode(text) else { throw XCTSkip("not an event: \(text)") }
        return event
    }

    func test_chatMessage_decodesWithIdSenderTextAndTime() throws {
        let decoded = try event("call.chat_message", #"""
            {"message":{"id":42,"cid":"default:standup","userId":"bob","sessionId":"b1","text":"hi ✋","createdAt":"2026-01-01T10:00:00.000Z"}}
            """#)
        XCTAssertEqual(decoded, .chatMessage(ChatMessageEvent(message: ChatMessage(
            id: 42, cid: CallID(type: .default, id: "standup"), userId: "bob", sessionId: "b1", text: "hi ✋",
            createdAt: Date(timeIntervalSince1970: 1_767_261_600)))))
    }

    func test_reactionHandAndWaitingRoomEvents_decodeTyped() throws {
        let cid = CallID(type: .default, id: "standup")
        XCTAssertEqual(
            try event("call.reaction", #"{"cid":"default:standup","userId":"bob","sessionId":"b1","emoji":"👍"}"#),
            .reaction(ReactionEvent(cid: cid, userId: "bob", sessionId: "b1", emoji: .thumbsUp)))
        XCTAssertEqual(
            try event("call.hand_raised", #"""
                {"cid":"default:standup","userId":"bob","sessionId":"b1","byUserId":"bob","raisedHand":{"raisedAt":"2026-01-01T10:00:00.000Z","order":3}}
                """#),
            .handRaised(HandEvent(
                cid: cid, userId: "bob", sessionId: "b1",
                raisedHand: RaisedHand(raisedAt: Date(timeIntervalSince1970: 1_767_261_600), order: 3), byUserId: "bob")))
        XCTAssertEqual(try event("call.join_denied", #"{"cid":"default:standup"}"#), .joinDenied(JoinAnswerEvent(cid: cid)))
        XCTAssertEqual(
            try event("call.knock_resolved", #"{"cid":"default:standup","userId":"carol","outcome":"withdrawn"}"#),
            .knockResolved(KnockResolvedEvent(cid: cid, userId: "carol", outcome: .withdrawn, byUserId: nil)))
    }

    func test_reactionOutsideTheFixedSet_isUnreadable_notShown() {
        XCTAssertThrowsError(try event("call.reaction", #"{"cid":"default:standup","userId":"bob","sessionId":"b1","emoji":"💩"}"#))
    }
}
