import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// A call that asks to join (issue 18): non-members knock, hosts admit or deny, the server
/// gives no session (and so no media token) before a host lets someone in, and a denied
/// knocker learns nothing of the call.
final class WaitingRoomTests: ServerTestCase {
    /// alice hosts `default:standup` with a waiting room and bob as a member; returns its link secret.
    private func askToJoinCall(host alice: TestClient) async throws -> (CallID, String) {
        let call = cid("default:standup")
        let created = try await alice.send(GetOrCreateCallRequest(
            cid: call, members: [MemberRequest(userId: "bob")], custom: ["agenda": .string("private")], askToJoin: true))
        XCTAssertTrue(created.call.askToJoin)
        _ = try await alice.send(JoinCallRequest(cid: call))
        return (call, try XCTUnwrap(created.call.linkSecret))
    }

    func test_linkHolderJoining_knocks_getsNoSession_andTheHostHearsIt() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        let (call, secret) = try await askToJoinCall(host: alice)

        let knocked = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))

        XCTAssertEqual(knocked.code, .waitingForHost)
        let heard = try await alice.nextEvent(.participantKnocked).knocked
        XCTAssertEqual(heard?.knock.userId, "carol")
        let state = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(state.knocks.map(\.userId), ["carol"])
        XCTAssertEqual(state.session.participants.map(\.userId), ["alice"], "no session before a host lets her in")
    }

    func test_knocker_cannotReadTheCall_beforeBeingLetIn() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        let (call, secret) = try await askToJoinCall(host: alice)
        _ = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))

        let read = try await carol.sendExpectingError(GetCallRequest(cid: call, linkSecret: secret))
        let chat = try await carol.sendExpectingError(GetChatHistoryRequest(cid: call))

        XCTAssertEqual(read.code, .waitingForHost)
        XCTAssertEqual(chat.code, .waitingForHost)
        _ = try await alice.send(SendChatMessageRequest(cid: call, text: "before carol"))
        try await carol.barrier()
        let texts = await carol.receivedTexts()
        XCTAssertFalse(texts.contains { $0.contains("private") || $0.contains("before carol") || $0.contains("\"bob\"") })
    }

    func test_admittedKnocker_isTold_thenJoinsWithASession() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        let (call, secret) = try await askToJoinCall(host: alice)
        _ = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))

        let afterAdmit = try await alice.send(AdmitParticipantRequest(cid: call, userId: "carol")).call

        XCTAssertEqual(afterAdmit.knocks, [])
        let admission = try await carol.nextEvent(.joinAdmitted).joinAnswer
        XCTAssertEqual(admission?.cid, call)
        let resolved = try await alice.nextEvent(.knockResolved).knockResolved
        XCTAssertEqual(resolved, KnockResolvedEvent(cid: call, userId: "carol", outcome: .admitted, byUserId: "alice"))
        let joined = try await carol.send(JoinCallRequest(cid: call, linkSecret: secret))
        XCTAssertEqual(joined.call.session.participants.map(\.userId).sorted(), ["alice", "carol"])
        XCTAssertTrue(joined.call.ownCapabilities.contains(.sendChat))
    }

    func test_deniedKnocker_isTold_learnsNothing_andJoiningAgainIsRefused() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        let (call, secret) = try await askToJoinCall(host: alice)
        _ = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))

        _ = try await alice.send(DenyParticipantRequest(cid: call, userId: "carol"))

        let denial = try await carol.nextEvent(.joinDenied)
        XCTAssertEqual(denial.joinAnswer, JoinAnswerEvent(cid: call))
        let again = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))
        let read = try await carol.sendExpectingError(GetCallRequest(cid: call, linkSecret: secret))
        XCTAssertEqual(again.code, .joinDenied)
        XCTAssertEqual(read.code, .joinDenied)
        let texts = await carol.receivedTexts()
        XCTAssertFalse(texts.contains { $0.contains("private") || $0.contains("\"bob\"") })
        let state = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(state.knocks, [])
        XCTAssertEqual(state.session.participants.map(\.userId), ["alice"])
    }

    func test_admittingWithoutTheCapability_isForbidden_andTheKnockerStillWaits() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let carol = try await connect("carol")
        let (call, secret) = try await askToJoinCall(host: alice)
        _ = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))

        let admit = try await bob.sendExpectingError(AdmitParticipantRequest(cid: call, userId: "carol"))
        let deny = try await bob.sendExpectingError(DenyParticipantRequest(cid: call, userId: "carol"))

        XCTAssertEqual(admit.code, .forbidden)
        XCTAssertTrue(admit.message.contains("admitParticipants"), admit.message)
        XCTAssertEqual(deny.code, .forbidden)
        let stillWaiting = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))
        XCTAssertEqual(stillWaiting.code, .waitingForHost)
        let alicesView = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(alicesView.knocks.map(\.userId), ["carol"])
        let bobsView = try await bob.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(bobsView.knocks, [], "only those who may admit see who waits")
    }

    func test_knockerMadeAMember_joinsDirectly_andLeavesTheWaitingList() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        let (call, secret) = try await askToJoinCall(host: alice)
        _ = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))
        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "carol")]))

        let joined = try await carol.send(JoinCallRequest(cid: call))

        XCTAssertEqual(joined.call.session.participants.count, 2)
        let resolved = try await alice.nextEvent(.knockResolved).knockResolved
        XCTAssertEqual(resolved?.outcome, .admitted)
        XCTAssertNil(resolved?.byUserId)
        let hostsView = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(hostsView.knocks, [])
    }

    func test_member_joinsACallThatAsksToJoin_directly() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let (call, _) = try await askToJoinCall(host: alice)
        let joined = try await bob.send(JoinCallRequest(cid: call))
        XCTAssertEqual(joined.call.session.participants.count, 2)
    }

    func test_strangerWithoutTheLink_cannotKnock() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let (call, _) = try await askToJoinCall(host: alice)
        let refused = try await mallory.sendExpectingError(JoinCallRequest(cid: call))
        XCTAssertEqual(refused.code, .privateCall)
        try await alice.barrier()
        let knocks = await alice.receivedEvents(.participantKnocked)
        XCTAssertEqual(knocks, [])
    }

    func test_knockerWhoDisconnects_leavesTheWaitingList() async throws {
        let alice = try await connect("alice")
        let carol = try await server.client("carol")
        let (call, secret) = try await askToJoinCall(host: alice)
        _ = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))
        _ = try await alice.nextEvent(.participantKnocked)

        await carol.close()

        let withdrawn = try await alice.nextEvent(.knockResolved).knockResolved
        XCTAssertEqual(withdrawn?.outcome, .withdrawn)
        XCTAssertNil(withdrawn?.byUserId)
        let afterwards = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(afterwards.knocks, [])
        let admit = try await alice.sendExpectingError(AdmitParticipantRequest(cid: call, userId: "carol"))
        XCTAssertEqual(admit.code, .participantNotFound)
    }

    func test_knockerWhoLeaves_leavesTheWaitingList_andLearnsNothing() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        let (call, secret) = try await askToJoinCall(host: alice)
        _ = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))
        _ = try await alice.nextEvent(.participantKnocked)

        // The app's lobby leaves the call when its user stops waiting.
        let left = try await carol.sendExpectingError(LeaveCallRequest(cid: call))

        XCTAssertEqual(left.code, .waitingForHost, "a knocker's leave answered with something of the call")
        let withdrawn = try await alice.nextEvent(.knockResolved).knockResolved
        XCTAssertEqual(withdrawn?.userId, "carol")
        XCTAssertEqual(withdrawn?.outcome, .withdrawn)
        let afterwards = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(afterwards.knocks, [])
        // Knocking again puts her back on the list.
        _ = try await carol.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))
        let again = try await alice.nextEvent(.participantKnocked).knocked
        XCTAssertEqual(again?.knock.userId, "carol")
    }

    func test_hostTurnsTheWaitingRoomOn_whoIsInStays_andNewLinkHoldersKnock() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        let dave = try await connect("dave")
        let call = cid("default:standup")
        let created = try await alice.send(GetOrCreateCallRequest(cid: call)).call
        let secret = try XCTUnwrap(created.linkSecret)
        _ = try await carol.send(JoinCallRequest(cid: call, linkSecret: secret))

        let updated = try await alice.send(UpdateCallRequest(cid: call, askToJoin: true)).call

        XCTAssertTrue(updated.askToJoin)
        let carolsChat = try await carol.send(SendChatMessageRequest(cid: call, text: "still in"))
        XCTAssertEqual(carolsChat.message.userId, "carol")
        let daveKnocks = try await dave.sendExpectingError(JoinCallRequest(cid: call, linkSecret: secret))
        XCTAssertEqual(daveKnocks.code, .waitingForHost)
        let off = try await alice.send(UpdateCallRequest(cid: call, askToJoin: false)).call
        XCTAssertFalse(off.askToJoin)
        let daveIn = try await dave.send(JoinCallRequest(cid: call, linkSecret: secret)).call
        XCTAssertEqual(daveIn.session.participants.map(\.userId).sorted(), ["carol", "dave"])
    }

    func test_plainMember_cannotTurnTheWaitingRoomOff() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let (call, _) = try await askToJoinCall(host: alice)
        let refused = try await bob.sendExpectingError(UpdateCallRequest(cid: call, askToJoin: false))
        XCTAssertEqual(refused.code, .forbidden)
    }
}
