import ConfabProtocol
import Foundation
import XCTest

/// Every call request on the happy path, and its events.
final class CallRequestTests: ServerTestCase {
    func test_newCid_getOrCreateCall_createsCallWithCreatorAsHostAndSendsCreatedToMembers() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let startsAt = Date(timeIntervalSince1970: 1_900_000_000)
        let response = try await alice.send(GetOrCreateCallRequest(
            cid: cid("default:standup"), members: [MemberRequest(userId: "bob"), MemberRequest(userId: "carol", role: .admin)],
            custom: ["topic": .string("planning")], startsAt: startsAt))
        XCTAssertTrue(response.created)
        let call = response.call
        XCTAssertEqual(call.cid.description, "default:standup")
        XCTAssertEqual(call.createdBy, "alice")
        XCTAssertEqual(call.members.map(\.userId), ["alice", "bob", "carol"])
        XCTAssertEqual(call.members.map(\.role), [.host, .user, .admin])
        XCTAssertEqual(call.custom, ["topic": .string("planning")])
        XCTAssertEqual(call.startsAt, startsAt)
        XCTAssertNil(call.endedAt)
        XCTAssertFalse(call.backstage || call.recording || call.broadcasting)
        XCTAssertTrue(call.ownCapabilities.contains(.endCall))
        let created = try await bob.nextEvent(.callCreated)
        XCTAssertEqual(created.changed?.call.cid, call.cid)
        // Bob's copy carries Bob's capabilities, not Alice's.
        XCTAssertEqual(created.changed?.call.ownCapabilities.contains(.endCall), false)
    }

    func test_existingCall_getOrCreateCall_returnsItUnchangedWithCreatedFalse() async throws {
        let alice = try await connect("alice")
        let first = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup"), custom: ["v": .number(1)]))
        let second = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup"), custom: ["v": .number(2)]))
        XCTAssertFalse(second.created)
        XCTAssertEqual(second.call.createdAt, first.call.createdAt)
        XCTAssertEqual(second.call.custom, ["v": .number(1)])
    }

    func test_existingCall_getCall_returnsStateAndSubscribesToEvents() async throws {
        let alice = try await connect("alice")
        let visitor = try await connect("visitor")
        let secret = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup"))).call.linkSecret
        let fetched = try await visitor.send(GetCallRequest(cid: cid("default:standup"), linkSecret: secret))
        XCTAssertEqual(fetched.call.createdBy, "alice")
        XCTAssertEqual(
            fetched.call.ownCapabilities,
            [.createCall, .readCall, .joinCall, .sendAudio, .sendVideo, .screenshare, .sendChat, .sendReaction, .raiseHand])
        _ = try await alice.send(JoinCallRequest(cid: cid("default:standup")))
        // The lobby's view: a non-member who fetched the call with its link sees who joins.
        let joined = try await visitor.nextEvent(.participantJoined)
        XCTAssertEqual(joined.joined?.participant.userId, "alice")
    }

    func test_existingCall_joinCall_addsParticipantAndTellsOtherMembers() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup"), members: [MemberRequest(userId: "bob")]))
        let joined = try await bob.send(JoinCallRequest(cid: cid("default:standup")))
        XCTAssertFalse(joined.sessionId.isEmpty)
        XCTAssertNil(joined.media)
        XCTAssertEqual(joined.call.session.participants.map(\.userId), ["bob"])
        XCTAssertEqual(joined.call.session.participants.first?.role, .user)
        let event = try await alice.nextEvent(.participantJoined)
        XCTAssertEqual(event.joined?.participant.sessionId, joined.sessionId)
    }

    func test_missingCall_joinWithCreate_createsCallAndJoinsAsHost() async throws {
        let alice = try await connect("alice")
        let joined = try await alice.send(JoinCallRequest(cid: cid("default:adhoc"), create: true))
        XCTAssertEqual(joined.call.createdBy, "alice")
        XCTAssertEqual(joined.call.session.participants.first?.role, .host)
    }

    func test_joinedConnection_joiningAgain_keepsItsSession() async throws {
        let alice = try await connect("alice")
        let first = try await alice.send(JoinCallRequest(cid: cid("default:adhoc"), create: true))
        let second = try await alice.send(JoinCallRequest(cid: cid("default:adhoc")))
        XCTAssertEqual(first.sessionId, second.sessionId)
        XCTAssertEqual(second.call.session.participants.count, 1)
    }

    func test_userOnTwoDevices_joiningFromBoth_isTwoParticipants() async throws {
        let laptop = try await connect("alice")
        let phone = try await connect("alice")
        let first = try await laptop.send(JoinCallRequest(cid: cid("default:adhoc"), create: true))
        let second = try await phone.send(JoinCallRequest(cid: cid("default:adhoc")))
        XCTAssertNotEqual(first.sessionId, second.sessionId)
        XCTAssertEqual(second.call.session.participants.map(\.userId), ["alice", "alice"])
    }

    func test_participant_leaveCall_isRemovedAndOthersSeeLeftReasonLeft() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:adhoc"), members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid("default:adhoc")))
        _ = try await bob.send(JoinCallRequest(cid: cid("default:adhoc")))
        let response = try await bob.send(LeaveCallRequest(cid: cid("default:adhoc")))
        XCTAssertEqual(response.call.session.participants.map(\.userId), ["alice"])
        let left = try await alice.nextEvent(.participantLeft)
        XCTAssertEqual(left.left?.participant.userId, "bob")
        XCTAssertEqual(left.left?.reason, .left)
    }

    func test_participantsConnection_closing_isSeenAsLeftReasonDisconnected() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:adhoc"), members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid("default:adhoc")))
        _ = try await bob.send(JoinCallRequest(cid: cid("default:adhoc")))
        await bob.close()
        let left = try await alice.nextEvent(.participantLeft)
        XCTAssertEqual(left.left?.reason, .disconnected)
    }

    func test_host_endCall_endsItForEveryoneAndFurtherJoinsAreRefused() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup"), members: [MemberRequest(userId: "bob")]))
        _ = try await bob.send(JoinCallRequest(cid: cid("default:standup")))
        let ended = try await alice.send(EndCallRequest(cid: cid("default:standup")))
        XCTAssertNotNil(ended.call.endedAt)
        XCTAssertTrue(ended.call.session.participants.isEmpty)
        let event = try await bob.nextEvent(.callEnded)
        XCTAssertEqual(event.ended?.reason, .ended)
        XCTAssertEqual(event.ended?.endedBy, "alice")
        let error = try await bob.sendExpectingError(JoinCallRequest(cid: cid("default:standup")))
        XCTAssertEqual(error.code, .callEnded)
        let again = try await alice.sendExpectingError(EndCallRequest(cid: cid("default:standup")))
        XCTAssertEqual(again.code, .callEnded)
    }

    func test_host_updateCall_changesFieldsAndSendsUpdated() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup"), members: [MemberRequest(userId: "bob")]))
        let startsAt = Date(timeIntervalSince1970: 1_950_000_000)
        let updated = try await alice.send(UpdateCallRequest(cid: cid("default:standup"), custom: ["room": .string("blue")], startsAt: startsAt))
        XCTAssertEqual(updated.call.custom, ["room": .string("blue")])
        XCTAssertEqual(updated.call.startsAt, startsAt)
        XCTAssertGreaterThanOrEqual(updated.call.updatedAt, updated.call.createdAt)
        let event = try await bob.nextEvent(.callUpdated)
        XCTAssertEqual(event.changed?.call.custom, ["room": .string("blue")])
    }

    func test_callInBackstage_userJoining_isRefusedWhileHostMayJoin() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:show"), members: [MemberRequest(userId: "bob")]))
        let updated = try await alice.send(UpdateCallRequest(cid: cid("default:show"), backstage: true))
        XCTAssertTrue(updated.call.backstage)
        let error = try await bob.sendExpectingError(JoinCallRequest(cid: cid("default:show")))
        XCTAssertEqual(error.code, .forbidden)
        XCTAssertTrue(error.message.contains("backstage"), error.message)
        _ = try await alice.send(JoinCallRequest(cid: cid("default:show")))
    }

    func test_host_addMembers_addsThemAndTellsTheNewMember() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup")))
        let response = try await alice.send(AddMembersRequest(cid: cid("default:standup"), members: [MemberRequest(userId: "carol", role: .host)]))
        XCTAssertEqual(response.call.members.map(\.userId), ["alice", "carol"])
        let event = try await carol.nextEvent(.membersAdded)
        XCTAssertEqual(event.membersAdded?.members.map(\.role), [.host])
        XCTAssertEqual(event.membersAdded?.call.ownCapabilities.contains(.endCall), true)
    }

    func test_host_removeMembers_removesThemAndTellsTheRemovedMember() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup"), members: [MemberRequest(userId: "bob")]))
        let response = try await alice.send(RemoveMembersRequest(cid: cid("default:standup"), userIds: ["bob"]))
        XCTAssertEqual(response.call.members.map(\.userId), ["alice"])
        let event = try await bob.nextEvent(.membersRemoved)
        XCTAssertEqual(event.membersRemoved?.userIds, ["bob"])
        let error = try await alice.sendExpectingError(RemoveMembersRequest(cid: cid("default:standup"), userIds: ["zed"]))
        XCTAssertEqual(error.code, .notAMember)
    }

    func test_host_blockUser_removesTheirSessionAndTheyCannotRejoinUntilUnblocked() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup"), members: [MemberRequest(userId: "bob")]))
        _ = try await bob.send(JoinCallRequest(cid: cid("default:standup")))
        let blocked = try await alice.send(BlockUserRequest(cid: cid("default:standup"), userId: "bob"))
        XCTAssertEqual(blocked.call.blockedUsers, ["bob"])
        XCTAssertTrue(blocked.call.session.participants.isEmpty)
        let left = try await alice.nextEvent(.participantLeft)
        XCTAssertEqual(left.left?.reason, .blocked)
        let event = try await bob.nextEvent(.userBlocked)
        XCTAssertEqual(event.block?.userId, "bob")
        XCTAssertEqual(event.block?.byUserId, "alice")

        let refused = try await bob.sendExpectingError(JoinCallRequest(cid: cid("default:standup")))
        XCTAssertEqual(refused.code, .blockedFromCall)
        // Issue 16: a blocked user reads nothing of the call any more (it used to answer with
        // the whole call and no capabilities).
        let unread = try await bob.sendExpectingError(GetCallRequest(cid: cid("default:standup")))
        XCTAssertEqual(unread.code, .blockedFromCall)

        let unblocked = try await alice.send(UnblockUserRequest(cid: cid("default:standup"), userId: "bob"))
        XCTAssertEqual(unblocked.call.blockedUsers, [])
        let unblockEvent = try await bob.nextEvent(.userUnblocked)
        XCTAssertEqual(unblockEvent.block?.userId, "bob")
        _ = try await bob.send(JoinCallRequest(cid: cid("default:standup")))
    }

    func test_host_blockingThemselves_isRefused() async throws {
        let alice = try await connect("alice")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup")))
        let error = try await alice.sendExpectingError(BlockUserRequest(cid: cid("default:standup"), userId: "alice"))
        XCTAssertEqual(error.code, .invalidRequest)
    }

    func test_host_unblockingSomeoneNotBlocked_isAConflict() async throws {
        let alice = try await connect("alice")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup")))
        let error = try await alice.sendExpectingError(UnblockUserRequest(cid: cid("default:standup"), userId: "bob"))
        XCTAssertEqual(error.code, .conflict)
    }

    func test_host_muteUsers_sendsMutedEventNamingUsersAndTracks() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:adhoc"), members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid("default:adhoc")))
        _ = try await bob.send(JoinCallRequest(cid: cid("default:adhoc")))
        _ = try await alice.send(MuteUsersRequest(cid: cid("default:adhoc"), userIds: ["bob"]))
        let event = try await bob.nextEvent(.usersMuted)
        XCTAssertEqual(event.muted?.userIds, ["bob"])
        XCTAssertEqual(event.muted?.audio, true)
        XCTAssertEqual(event.muted?.video, false)
        _ = try await alice.send(MuteUsersRequest(cid: cid("default:adhoc"), muteAllUsers: true, video: true))
        let all = try await bob.nextEvent(.usersMuted)
        XCTAssertEqual(all.muted?.userIds, ["bob"])
        XCTAssertEqual(all.muted?.video, true)
        XCTAssertEqual(all.muted?.audio, false)
    }

    func test_host_kickUser_removesTheirDevicesAndTellsThem() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:adhoc"), members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid("default:adhoc")))
        _ = try await bob.send(JoinCallRequest(cid: cid("default:adhoc")))
        let response = try await alice.send(KickUserRequest(cid: cid("default:adhoc"), userId: "bob"))
        XCTAssertEqual(response.call.session.participants.map(\.userId), ["alice"])
        XCTAssertEqual(response.call.blockedUsers, [])
        let kicked = try await bob.nextEvent(.userKicked)
        XCTAssertEqual(kicked.kicked?.byUserId, "alice")
        let left = try await alice.nextEvent(.participantLeft)
        XCTAssertEqual(left.left?.reason, .kicked)
        // A kick without block lets them back in.
        _ = try await bob.send(JoinCallRequest(cid: cid("default:adhoc")))
    }

    func test_host_kickWithBlock_alsoBlocks() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:adhoc"), members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid("default:adhoc")))
        _ = try await bob.send(JoinCallRequest(cid: cid("default:adhoc")))
        let response = try await alice.send(KickUserRequest(cid: cid("default:adhoc"), userId: "bob", block: true))
        XCTAssertEqual(response.call.blockedUsers, ["bob"])
        let error = try await bob.sendExpectingError(JoinCallRequest(cid: cid("default:adhoc")))
        XCTAssertEqual(error.code, .blockedFromCall)
    }

    func test_host_kickingSomeoneNotInTheCall_answersParticipantNotFound() async throws {
        let alice = try await connect("alice")
        _ = try await alice.send(JoinCallRequest(cid: cid("default:adhoc"), create: true))
        let error = try await alice.sendExpectingError(KickUserRequest(cid: cid("default:adhoc"), userId: "bob"))
        XCTAssertEqual(error.code, .participantNotFound)
    }

    func test_host_pinAndUnpinForEveryone_marksTheSessionAndTellsEveryone() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:adhoc"), members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid("default:adhoc")))
        let bobs = try await bob.send(JoinCallRequest(cid: cid("default:adhoc")))
        let pinned = try await alice.send(PinForEveryoneRequest(cid: cid("default:adhoc"), userId: "bob", sessionId: bobs.sessionId))
        XCTAssertNotNil(pinned.call.session.participants.first { $0.sessionId == bobs.sessionId }?.pinnedAt)
        let pinEvent = try await bob.nextEvent(.pinned)
        XCTAssertEqual(pinEvent.pin?.sessionId, bobs.sessionId)
        let unpinned = try await alice.send(UnpinForEveryoneRequest(cid: cid("default:adhoc"), userId: "bob", sessionId: bobs.sessionId))
        XCTAssertNil(unpinned.call.session.participants.first { $0.sessionId == bobs.sessionId }?.pinnedAt)
        let unpinEvent = try await bob.nextEvent(.unpinned)
        XCTAssertEqual(unpinEvent.pin?.userId, "bob")
    }

    func test_host_pinningUnknownSession_answersParticipantNotFound() async throws {
        let alice = try await connect("alice")
        _ = try await alice.send(JoinCallRequest(cid: cid("default:adhoc"), create: true))
        let error = try await alice.sendExpectingError(PinForEveryoneRequest(cid: cid("default:adhoc"), userId: "bob", sessionId: "nope"))
        XCTAssertEqual(error.code, .participantNotFound)
    }

    func test_host_startAndStopRecording_flipsFlagAndSendsEvents() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:standup"), members: [MemberRequest(userId: "bob")]))
        let started = try await alice.send(StartRecordingRequest(cid: cid("default:standup")))
        XCTAssertTrue(started.call.recording)
        let startEvent = try await bob.nextEvent(.recordingStarted)
        XCTAssertEqual(startEvent.changed?.call.recording, true)
        let twice = try await alice.sendExpectingError(StartRecordingRequest(cid: cid("default:standup")))
        XCTAssertEqual(twice.code, .conflict)
        let stopped = try await alice.send(StopRecordingRequest(cid: cid("default:standup")))
        XCTAssertFalse(stopped.call.recording)
        let stopEvent = try await bob.nextEvent(.recordingStopped)
        XCTAssertEqual(stopEvent.changed?.call.recording, false)
        let notRecording = try await alice.sendExpectingError(StopRecordingRequest(cid: cid("default:standup")))
        XCTAssertEqual(notRecording.code, .conflict)
    }
}
