import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// Reactions (relayed, rate-limited, never kept) and raised hands (in the live session, in
/// raising order; a host lowers anyone's) — issue 18.
final class ReactionAndHandTests: ServerTestCase {
    // MARK: Reactions

    func test_reaction_reachesEveryoneInTheCall_withSenderAndSession() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let bobsSession = try await bob.send(JoinCallRequest(cid: call)).sessionId

        _ = try await bob.send(SendReactionRequest(cid: call, emoji: .party))

        let seen = try await alice.nextEvent(.reaction).reaction
        XCTAssertEqual(seen, ReactionEvent(cid: call, userId: "bob", sessionId: bobsSession, emoji: .party))
        let seenByBob = try await bob.nextEvent(.reaction).reaction
        XCTAssertEqual(seenByBob?.emoji, .party)
    }

    func test_reactionFlood_isRateLimitedAfterFive_andOthersSeeOnlyFive() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()

        var refusals: [ErrorCode] = []
        for _ in 0..<20 {
            do {
                _ = try await bob.send(SendReactionRequest(cid: call, emoji: .clap))
            } catch let error as ProtocolError {
                refusals.append(error.code)
            }
        }
        let alicesOwn = try await alice.send(SendReactionRequest(cid: call, emoji: .heart))

        XCTAssertEqual(refusals, Array(repeating: .rateLimited, count: 20 - SessionRateLimits().reactions.burst))
        XCTAssertEqual(alicesOwn, EmptyResponse(), "the limit is per device: alice may still react")
        try await alice.barrier()
        let seen = await alice.receivedEvents(.reaction).compactMap(\.reaction)
        XCTAssertEqual(seen.filter { $0.userId == "bob" }.count, SessionRateLimits().reactions.burst)
    }

    func test_reactionLimiter_allowsAgainOnceTheWindowHasPassed() {
        var limiter = SessionRateLimits().reactions
        let start = ContinuousClock.now
        for _ in 0..<SessionRateLimits().reactions.burst { XCTAssertTrue(limiter.allow(session: "s", at: start)) }
        XCTAssertFalse(limiter.allow(session: "s", at: start + .seconds(4)))
        XCTAssertTrue(limiter.allow(session: "other", at: start + .seconds(4)))
        XCTAssertTrue(limiter.allow(session: "s", at: start + SessionRateLimits().reactions.window))
    }

    func test_reactionOutsideTheFixedSet_isRefusedAsInvalid_naming_emoji() async throws {
        let (_, bob, _) = try await callWithAliceAndBobIn()
        let frame = try await bob.sendText(
            #"{"kind":"request","id":"r-x","type":"sendReaction","payload":{"cid":"default:standup","emoji":"💩"}}"#,
            expectingReplyTo: "r-x")
        let error = try TestClient.error(in: frame).error
        XCTAssertEqual(error.code, .invalidRequest)
        XCTAssertTrue(error.message.contains("emoji"), error.message)
    }

    func test_reaction_fromSomeoneNotInTheCall_isRefused() async throws {
        let (alice, _, call) = try await callWithAliceAndBobIn()
        let carol = try await connect("carol")
        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "carol")]))
        let refused = try await carol.sendExpectingError(SendReactionRequest(cid: call, emoji: .thumbsUp))
        XCTAssertEqual(refused.code, .notInCall)
    }

    // MARK: Hands

    func test_raisedHands_areInTheCallStateInRaisingOrder_andEveryoneHearsThem() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()

        _ = try await bob.send(RaiseHandRequest(cid: call))
        _ = try await alice.send(RaiseHandRequest(cid: call))
        let again = try await bob.send(RaiseHandRequest(cid: call))

        let raised = try await alice.nextEvent(.handRaised).hand
        XCTAssertEqual(raised?.userId, "bob")
        XCTAssertEqual(raised?.raisedHand?.order, 1)
        let hands = again.call.session.participants.compactMap { p in p.raisedHand.map { (p.userId, $0.order) } }
        XCTAssertEqual(hands.sorted { $0.1 < $1.1 }.map(\.0), ["bob", "alice"])
        XCTAssertEqual(hands.first { $0.0 == "bob" }?.1, 1, "raising again keeps the hand's place")
        // A late joiner sees the hands in the state it joins with.
        let carol = try await connect("carol")
        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "carol")]))
        let joined = try await carol.send(JoinCallRequest(cid: call)).call
        XCTAssertEqual(joined.session.participants.filter { $0.raisedHand != nil }.count, 2)
        try await alice.barrier()
        let raisedEvents = await alice.receivedEvents(.handRaised)
        XCTAssertEqual(raisedEvents.count, 2, "raising a raised hand says nothing new")
    }

    func test_host_lowersSomeonesHand_andEveryoneHearsWhoDidIt() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        _ = try await bob.send(RaiseHandRequest(cid: call))

        let state = try await alice.send(LowerHandRequest(cid: call, userId: "bob")).call

        XCTAssertEqual(state.session.participants.filter { $0.raisedHand != nil }, [])
        let lowered = try await bob.nextEvent(.handLowered).hand
        XCTAssertEqual(lowered?.userId, "bob")
        XCTAssertEqual(lowered?.byUserId, "alice")
        XCTAssertNil(lowered?.raisedHand)
    }

    func test_plainMember_loweringSomeoneElsesHand_isForbidden_butLowersTheirOwn() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        _ = try await alice.send(RaiseHandRequest(cid: call))
        _ = try await bob.send(RaiseHandRequest(cid: call))

        let refused = try await bob.sendExpectingError(LowerHandRequest(cid: call, userId: "alice"))
        let own = try await bob.send(LowerHandRequest(cid: call)).call

        XCTAssertEqual(refused.code, .forbidden)
        XCTAssertTrue(refused.message.contains("muteUsers"), refused.message)
        XCTAssertEqual(own.session.participants.filter { $0.raisedHand != nil }.map(\.userId), ["alice"])
        let lowered = try await alice.nextEvent(.handLowered).hand
        XCTAssertEqual(lowered?.byUserId, "bob")
    }

    func test_raisingAHand_outsideTheCall_isRefused() async throws {
        let (alice, _, call) = try await callWithAliceAndBobIn()
        _ = try await alice.send(LeaveCallRequest(cid: call))
        let refused = try await alice.sendExpectingError(RaiseHandRequest(cid: call))
        XCTAssertEqual(refused.code, .notInCall)
    }
}
