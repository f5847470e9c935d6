import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// Chat in a call (issue 18): who may send, what is refused, who hears it, and the history a
/// late joiner reads.
final class ChatTests: ServerTestCase {
    func test_chatMessage_fromParticipant_reachesEveryoneInTheCall_withServerIdSenderAndTime() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let before = Date()

        let sent = try await bob.send(SendChatMessageRequest(cid: call, text: "hello 👋")).message

        XCTAssertEqual(sent.userId, "bob")
        XCTAssertEqual(sent.text, "hello 👋")
        XCTAssertEqual(sent.cid, call)
        XCTAssertNotNil(sent.sessionId)
        XCTAssertGreaterThanOrEqual(sent.createdAt.timeIntervalSince1970, before.timeIntervalSince1970 - 0.001)
        let heardByAlice = try await alice.nextEvent(.chatMessage).chat
        XCTAssertEqual(heardByAlice, sent)
        let heardByBob = try await bob.nextEvent(.chatMessage).chat
        XCTAssertEqual(heardByBob, sent, "the sender's devices get it too")
        let second = try await alice.send(SendChatMessageRequest(cid: call, text: "hi")).message
        XCTAssertGreaterThan(second.id, sent.id)
    }

    func test_chatMessage_toCallYouAreNotIn_isRefused_andNobodyHearsIt() async throws {
        let (alice, _, call) = try await callWithAliceAndBobIn()
        let carol = try await connect("carol")
        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "carol")]))
        let stranger = try await connect("mallory")

        let notJoined = try await carol.sendExpectingError(SendChatMessageRequest(cid: call, text: "let me in"))
        let notAMember = try await stranger.sendExpectingError(SendChatMessageRequest(cid: call, text: "spam"))

        XCTAssertEqual(notJoined.code, .notInCall)
        XCTAssertEqual(notAMember.code, .privateCall)
        try await alice.barrier()
        let heard = await alice.receivedEvents(.chatMessage)
        XCTAssertEqual(heard, [])
        let history = try await alice.send(GetChatHistoryRequest(cid: call))
        XCTAssertEqual(history.messages, [])
    }

    func test_chatMessage_over4096Bytes_isRefusedAsTooLong_andNothingIsStored() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        // 2048 two-byte characters are 4096 bytes: the most a message may hold.
        let longest = String(repeating: "é", count: 2048)
        let fiveKilobytes = String(repeating: "x", count: 5 * 1024)

        let refused = try await bob.sendExpectingError(SendChatMessageRequest(cid: call, text: fiveKilobytes))
        let oneByteOver = try await bob.sendExpectingError(SendChatMessageRequest(cid: call, text: longest + "e"))
        let accepted = try await bob.send(SendChatMessageRequest(cid: call, text: longest)).message

        XCTAssertEqual(refused.code, .messageTooLong)
        XCTAssertTrue(refused.message.contains("4096"), refused.message)
        XCTAssertEqual(oneByteOver.code, .messageTooLong)
        let history = try await alice.send(GetChatHistoryRequest(cid: call)).messages
        XCTAssertEqual(history, [accepted])
    }

    func test_blankChatMessage_isRefusedAsInvalid() async throws {
        let (_, bob, call) = try await callWithAliceAndBobIn()
        let empty = try await bob.sendExpectingError(SendChatMessageRequest(cid: call, text: ""))
        let spaces = try await bob.sendExpectingError(SendChatMessageRequest(cid: call, text: " \n\t "))
        XCTAssertEqual(empty.code, .invalidRequest)
        XCTAssertEqual(spaces.code, .invalidRequest)
    }

    func test_oneMegabyteChatFrame_isRefusedAsTooLarge_andTheServerKeepsServing() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let megabyte = String(repeating: "x", count: 1_000_000)

        let frame = try await bob.sendText(
            #"{"kind":"request","id":"huge","type":"sendChatMessage","payload":{"cid":"default:standup","text":"\#(megabyte)"}}"#,
            expectingReplyTo: nil)

        XCTAssertEqual(try TestClient.error(in: frame).error.code, .messageTooLarge)
        let after = try await bob.send(SendChatMessageRequest(cid: call, text: "still here")).message
        let history = try await alice.send(GetChatHistoryRequest(cid: call)).messages
        XCTAssertEqual(history, [after])
    }

    func test_lateJoiner_readsTheHistory_oldestFirst_andPagesBack() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        var sent: [ChatMessage] = []
        for (index, sender) in [alice, bob, alice, bob, alice].enumerated() {
            sent.append(try await sender.send(SendChatMessageRequest(cid: call, text: "message \(index)")).message)
        }
        let carol = try await connect("carol")
        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "carol")]))
        _ = try await carol.send(JoinCallRequest(cid: call))

        let all = try await carol.send(GetChatHistoryRequest(cid: call))
        let newestTwo = try await carol.send(GetChatHistoryRequest(cid: call, limit: 2))
        let olderPage = try await carol.send(GetChatHistoryRequest(cid: call, before: newestTwo.messages.first?.id, limit: 2))

        XCTAssertEqual(all.messages, sent)
        XCTAssertFalse(all.hasMore)
        XCTAssertEqual(newestTwo.messages, Array(sent[3...4]))
        XCTAssertTrue(newestTwo.hasMore)
        XCTAssertEqual(olderPage.messages, Array(sent[1...2]))
        XCTAssertTrue(olderPage.hasMore)
    }

    func test_chatHistory_isRefusedToBlockedUsersAndStrangers_andOutOfRangeLimits() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        _ = try await bob.send(SendChatMessageRequest(cid: call, text: "secret plans"))
        _ = try await alice.send(BlockUserRequest(cid: call, userId: "bob"))
        let stranger = try await connect("mallory")

        let blocked = try await bob.sendExpectingError(GetChatHistoryRequest(cid: call))
        let notAMember = try await stranger.sendExpectingError(GetChatHistoryRequest(cid: call))
        let zero = try await alice.sendExpectingError(GetChatHistoryRequest(cid: call, limit: 0))
        let tooMany = try await alice.sendExpectingError(GetChatHistoryRequest(cid: call, limit: 100_000))

        XCTAssertEqual(blocked.code, .blockedFromCall)
        XCTAssertEqual(notAMember.code, .privateCall)
        XCTAssertFalse(notAMember.message.contains("secret"), notAMember.message)
        XCTAssertEqual(zero.code, .invalidRequest)
        XCTAssertEqual(tooMany.code, .invalidRequest)
    }

    func test_blockedParticipant_hearsNoMoreChat() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        _ = try await alice.send(BlockUserRequest(cid: call, userId: "bob"))
        _ = try await alice.send(SendChatMessageRequest(cid: call, text: "bob is gone"))
        try await bob.barrier()
        let heard = await bob.receivedEvents(.chatMessage)
        XCTAssertEqual(heard, [])
    }
}
