import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// Who may see and join a call (issue 16, item 8): members, people a host adds, and holders of
/// the call's link secret — nobody else, whatever id they guess or create first.
final class CallPolicyTests: ServerTestCase {
    // MARK: Reading

    func test_stranger_getCall_ofAlicesCall_isRefusedAsPrivateWithNothingOfTheCall() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:board")
        _ = try await alice.send(GetOrCreateCallRequest(
            cid: call, members: [MemberRequest(userId: "bob")], custom: ["agenda": .string("layoffs")]))

        let refused = try await mallory.sendExpectingError(GetCallRequest(cid: call))

        XCTAssertEqual(refused.code, .privateCall)
        for secret in ["bob", "layoffs", "alice"] {
            XCTAssertFalse(refused.message.contains(secret), "the refusal leaks \(secret): \(refused.message)")
        }
    }

    func test_stranger_getCall_hearsNoEventsOfTheCallAfterwards() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:board")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call))
        _ = try await mallory.sendExpectingError(GetCallRequest(cid: call))

        _ = try await alice.send(UpdateCallRequest(cid: call, custom: ["agenda": .string("secret")]))
        _ = try await alice.send(JoinCallRequest(cid: call))
        try await mallory.barrier()

        let updates = await mallory.receivedEvents(.callUpdated)
        let joins = await mallory.receivedEvents(.participantJoined)
        XCTAssertEqual(updates.count, 0)
        XCTAssertEqual(joins.count, 0)
    }

    func test_stranger_requestsThatAnswerWithTheCall_areAllRefusedAsPrivate() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:board")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, custom: ["agenda": .string("layoffs")]))

        let refusals: [(String, ProtocolError)] = [
            ("leaveCall", try await mallory.sendExpectingError(LeaveCallRequest(cid: call))),
            ("rejectCall", try await mallory.sendExpectingError(RejectCallRequest(cid: call))),
            ("acceptCall", try await mallory.sendExpectingError(AcceptCallRequest(cid: call))),
            ("ringCall", try await mallory.sendExpectingError(RingCallRequest(cid: call))),
            ("endCall", try await mallory.sendExpectingError(EndCallRequest(cid: call))),
        ]
        for (request, error) in refusals {
            XCTAssertEqual(error.code, .privateCall, "\(request): \(error)")
        }
    }

    // MARK: Joining

    func test_stranger_joiningAlicesCallUninvited_isRefusedAndNotInTheSession() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:board")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call))

        let refused = try await mallory.sendExpectingError(JoinCallRequest(cid: call, create: true))

        XCTAssertEqual(refused.code, .privateCall)
        let read = try await alice.send(GetCallRequest(cid: call))
        XCTAssertEqual(read.call.session.participants.map(\.userId), [])
        XCTAssertEqual(read.call.members.map(\.userId), ["alice"])
    }

    func test_memberAddedByHost_mayThenJoin() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        let call = cid("default:board")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call))
        _ = try await carol.sendExpectingError(JoinCallRequest(cid: call))

        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "carol")]))
        let joined = try await carol.send(JoinCallRequest(cid: call))

        XCTAssertEqual(joined.call.session.participants.map(\.userId), ["carol"])
    }

    // MARK: Squatting a predictable id

    func test_malloryPrecreatesStandup_aliceComing_isToldItIsPrivateAndMalloryStaysItsOnlyMember() async throws {
        let mallory = try await connect("mallory")
        let alice = try await connect("alice")
        let call = cid("default:standup")
        _ = try await mallory.send(GetOrCreateCallRequest(cid: call))

        let created = try await alice.sendExpectingError(GetOrCreateCallRequest(
            cid: call, members: [MemberRequest(userId: "bob")], custom: ["owner": .string("alice")]))
        let joined = try await alice.sendExpectingError(JoinCallRequest(cid: call, create: true))

        XCTAssertEqual(created.code, .privateCall)
        XCTAssertEqual(joined.code, .privateCall)
        XCTAssertTrue(joined.message.contains("exists"), "the refusal should tell alice the call exists: \(joined.message)")
        let squatted = try await mallory.send(GetCallRequest(cid: call))
        XCTAssertEqual(squatted.call.members.map(\.userId), ["mallory"])
        XCTAssertEqual(squatted.call.session.participants, [])
        XCTAssertEqual(squatted.call.custom, [:])
    }

    func test_strangerGetOrCreatingAlicesCall_neverBecomesMemberOrHost() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:standup")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, custom: ["owner": .string("alice")]))

        _ = try await mallory.sendExpectingError(GetOrCreateCallRequest(
            cid: call, members: [MemberRequest(userId: "mallory", role: .host)], custom: ["owner": .string("mallory")]))

        let read = try await alice.send(GetCallRequest(cid: call))
        XCTAssertEqual(read.call.members.map(\.userId), ["alice"])
        XCTAssertEqual(read.call.custom, ["owner": .string("alice")])
        let ending = try await mallory.sendExpectingError(EndCallRequest(cid: call))
        XCTAssertEqual(ending.code, .privateCall)
    }

    // MARK: The link

    func test_linkSecret_isGivenToMembersAndIs128RandomBitsNotTheCallsName() async throws {
        let alice = try await connect("alice")
        let first = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup")))
        let second = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup2")))

        let secret = try XCTUnwrap(first.call.linkSecret)
        XCTAssertEqual(secret.count, 32)
        XCTAssertTrue(secret.allSatisfy { $0.isHexDigit && !$0.isUppercase }, secret)
        XCTAssertFalse(secret.contains("standup"))
        XCTAssertNotEqual(first.call.linkSecret, second.call.linkSecret)
    }

    func test_linkSecret_holderJoinsAsPlainUser_withoutBecomingAMember() async throws {
        let alice = try await connect("alice")
        let dave = try await connect("dave")
        let call = cid("default:board")
        let secretResponse = try await alice.send(GetOrCreateCallRequest(cid: call))
        let secret = try XCTUnwrap(secretResponse.call.linkSecret)

        let joined = try await dave.send(JoinCallRequest(cid: call, linkSecret: secret))

        XCTAssertEqual(joined.call.session.participants.map(\.userId), ["dave"])
        XCTAssertEqual(joined.call.session.participants.first?.role, .user)
        XCTAssertEqual(joined.call.members.map(\.userId), ["alice"])
        XCTAssertFalse(joined.call.ownCapabilities.contains(.endCall))
        let ending = try await dave.sendExpectingError(EndCallRequest(cid: call))
        XCTAssertEqual(ending.code, .forbidden)
    }

    func test_linkSecret_holderReadsTheCallAndThenHearsItsEvents() async throws {
        let alice = try await connect("alice")
        let dave = try await connect("dave")
        let call = cid("default:board")
        let secretResponse = try await alice.send(GetOrCreateCallRequest(cid: call))
        let secret = try XCTUnwrap(secretResponse.call.linkSecret)

        let read = try await dave.send(GetCallRequest(cid: call, linkSecret: secret))
        _ = try await alice.send(JoinCallRequest(cid: call))

        XCTAssertEqual(read.call.createdBy, "alice")
        let joined = try await dave.nextEvent(.participantJoined)
        XCTAssertEqual(joined.joined?.participant.userId, "alice")
    }

    func test_wrongLinkSecret_isRefusedAsPrivate() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:board")
        let secretResponse = try await alice.send(GetOrCreateCallRequest(cid: call))
        let secret = try XCTUnwrap(secretResponse.call.linkSecret)
        let wrong = String(secret.dropLast()) + (secret.hasSuffix("0") ? "1" : "0")

        let read = try await mallory.sendExpectingError(GetCallRequest(cid: call, linkSecret: wrong))
        let joined = try await mallory.sendExpectingError(JoinCallRequest(cid: call, linkSecret: "standup"))

        XCTAssertEqual(read.code, .privateCall)
        XCTAssertEqual(joined.code, .privateCall)
    }

    func test_linkSecret_ofAnotherCall_opensNothingHere() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:board")))
        let ownResponse = try await mallory.send(GetOrCreateCallRequest(cid: cid("default:mine")))
        let own = try XCTUnwrap(ownResponse.call.linkSecret)

        let refused = try await mallory.sendExpectingError(JoinCallRequest(cid: cid("default:board"), linkSecret: own))

        XCTAssertEqual(refused.code, .privateCall)
    }

    func test_linkSecret_isNotGivenToThoseWhoMayNotRead() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:board")
        let secretResponse = try await alice.send(GetOrCreateCallRequest(cid: call))
        let secret = try XCTUnwrap(secretResponse.call.linkSecret)
        _ = try await alice.send(JoinCallRequest(cid: call))
        _ = try await alice.send(BlockUserRequest(cid: call, userId: "mallory"))

        let refused = try await mallory.sendExpectingError(GetCallRequest(cid: call, linkSecret: secret))
        try await mallory.barrier()

        XCTAssertEqual(refused.code, .blockedFromCall)
        XCTAssertFalse(refused.message.contains(secret))
        let frames = await mallory.receivedTexts()
        XCTAssertFalse(frames.contains { $0.contains(secret) }, "a frame to mallory carried the secret")
    }

    func test_linkSecret_survivesARestart_andStillOpensTheCall() async throws {
        let directory = try TestServer.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let call = cid("default:board")
        let first = try await TestServer.start(directory: directory)
        let alice = try await first.client("alice")
        let secretResponse = try await alice.send(GetOrCreateCallRequest(cid: call))
        let secret = try XCTUnwrap(secretResponse.call.linkSecret)
        await alice.close()
        await first.stop()

        let second = try await TestServer.start(directory: directory)
        let dave = try await second.client("dave")
        let joined = try await dave.send(JoinCallRequest(cid: call, linkSecret: secret))
        await dave.close()
        await second.stop()

        XCTAssertEqual(joined.call.linkSecret, secret)
        XCTAssertEqual(joined.call.session.participants.map(\.userId), ["dave"])
    }
}

/// A host resets the call's link (a leaked link, or someone who should no longer come).
final class CallLinkResetTests: ServerTestCase {
    func test_resetLink_oldSecretNoLongerOpensTheCall_theNewOneDoes() async throws {
        let alice = try await connect("alice")
        let dave = try await connect("dave")
        let call = cid("default:board")
        let created = try await alice.send(GetOrCreateCallRequest(cid: call))
        let old = try XCTUnwrap(created.call.linkSecret)

        let reset = try await alice.send(ResetCallLinkRequest(cid: call))
        let new = try XCTUnwrap(reset.call.linkSecret)

        XCTAssertNotEqual(new, old)
        let refused = try await dave.sendExpectingError(JoinCallRequest(cid: call, linkSecret: old))
        XCTAssertEqual(refused.code, .privateCall)
        let joined = try await dave.send(JoinCallRequest(cid: call, linkSecret: new))
        XCTAssertEqual(joined.call.session.participants.map(\.userId), ["dave"])
    }

    func test_resetLink_linkHolderInTheCall_isKickedAndHearsNothingMore() async throws {
        let alice = try await connect("alice")
        let dave = try await connect("dave")
        let call = cid("default:board")
        let created = try await alice.send(GetOrCreateCallRequest(cid: call))
        _ = try await dave.send(JoinCallRequest(cid: call, linkSecret: created.call.linkSecret))

        _ = try await alice.send(ResetCallLinkRequest(cid: call))

        let left = try await dave.nextEvent(.participantLeft)
        XCTAssertEqual(left.left?.participant.userId, "dave")
        XCTAssertEqual(left.left?.reason, .kicked)
        _ = try await alice.send(UpdateCallRequest(cid: call, custom: ["agenda": .string("after the reset")]))
        try await dave.barrier()
        let updates = await dave.receivedEvents(.callUpdated)
        XCTAssertEqual(updates.count, 0, "dave still hears the call: \(updates)")
        let read = try await dave.sendExpectingError(GetCallRequest(cid: call))
        XCTAssertEqual(read.code, .privateCall)
    }

    func test_resetLink_byAPlainMemberOrALinkHolder_isForbidden() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let dave = try await connect("dave")
        let call = cid("default:board")
        let created = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))
        _ = try await dave.send(GetCallRequest(cid: call, linkSecret: created.call.linkSecret))

        let byMember = try await bob.sendExpectingError(ResetCallLinkRequest(cid: call))
        let byHolder = try await dave.sendExpectingError(ResetCallLinkRequest(cid: call))

        XCTAssertEqual(byMember.code, .forbidden)
        XCTAssertEqual(byHolder.code, .forbidden)
        let read = try await alice.send(GetCallRequest(cid: call))
        XCTAssertEqual(read.call.linkSecret, created.call.linkSecret)
    }
}
