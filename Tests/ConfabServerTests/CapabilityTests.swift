import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// ownCapabilities per call type and role, and the server refusing what a role may not do.
final class CapabilityTests: ServerTestCase {
    func test_defaultCall_userRole_maySendMediaButNotModerate() {
        let capabilities = CallPermissions.capabilities(type: .default, role: .user)
        XCTAssertTrue(capabilities.isSuperset(of: [.joinCall, .sendAudio, .sendVideo, .screenshare]))
        XCTAssertTrue(capabilities.isDisjoint(with: [.muteUsers, .blockUsers, .kickUser, .endCall, .updateCall, .startRecording]))
    }

    func test_audioRoom_userRole_onlyListens() {
        let capabilities = CallPermissions.capabilities(type: .audioRoom, role: .user)
        XCTAssertTrue(capabilities.contains(.joinCall))
        XCTAssertTrue(capabilities.isDisjoint(with: [.sendAudio, .sendVideo, .screenshare]))
    }

    func test_audioRoom_hostRole_speaksAndModeratesButSendsNoVideo() {
        let capabilities = CallPermissions.capabilities(type: .audioRoom, role: .host)
        XCTAssertTrue(capabilities.isSuperset(of: [.sendAudio, .muteUsers, .endCall, .startRecording, .stopRecording]))
        XCTAssertFalse(capabilities.contains(.sendVideo))
    }

    /// A listener a host let speak: heard as a host is, seen by nobody, moderating nothing; in
    /// a video call the role changes nothing.
    func test_speakerRole_inAnAudioRoomSpeaksButModeratesNothing_inADefaultCallIsAUser() {
        let capabilities = CallPermissions.capabilities(type: .audioRoom, role: .speaker)
        XCTAssertEqual(capabilities.subtracting(CallPermissions.capabilities(type: .audioRoom, role: .user)), [.sendAudio])
        XCTAssertEqual(CallPermissions.capabilities(type: .default, role: .speaker), CallPermissions.capabilities(type: .default, role: .user))
    }

    /// The host lets bob speak (`addMembers` with the speaker role): bob's own capabilities
    /// gain sendAudio; made a user again, he is a listener again. A listener cannot do it.
    func test_hostLetsAListenerSpeak_andTakesItBack_aListenerCannot() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let room = cid("audio_room:stage")
        _ = try await alice.send(GetOrCreateCallRequest(cid: room, members: [MemberRequest(userId: "bob")]))
        do {
            _ = try await bob.send(AddMembersRequest(cid: room, members: [MemberRequest(userId: "bob", role: .speaker)]))
            XCTFail("a listener let himself speak")
        } catch {}
        _ = try await alice.send(AddMembersRequest(cid: room, members: [MemberRequest(userId: "bob", role: .speaker)]))
        let speaking = try await bob.send(GetCallRequest(cid: room))
        XCTAssertTrue(speaking.call.ownCapabilities.contains(.sendAudio))
        XCTAssertFalse(speaking.call.ownCapabilities.contains(.muteUsers))
        _ = try await alice.send(AddMembersRequest(cid: room, members: [MemberRequest(userId: "bob", role: .user)]))
        let listening = try await bob.send(GetCallRequest(cid: room))
        XCTAssertFalse(listening.call.ownCapabilities.contains(.sendAudio))
    }

    func test_everyRoleInEveryCallType_maySendChatReactAndRaiseAHand_butOnlyHostsAndAdminsAdmit() {
        for type in CallType.allCases {
            for role in CallRole.allCases {
                let capabilities = CallPermissions.capabilities(type: type, role: role)
                XCTAssertTrue(capabilities.isSuperset(of: [.sendChat, .sendReaction, .raiseHand]), "\(type) \(role)")
                XCTAssertEqual(capabilities.contains(.admitParticipants), role == .host || role == .admin, "\(type) \(role)")
            }
        }
    }

    /// The client reads a call type's rule before the join (`CallType.allowsAnyone`: no camera
    /// in an audio room's lobby); the server's table must never give more.
    func test_noRoleInAnyCallType_maySendWhatItsTypeLetsNobodySend() {
        for type in CallType.allCases {
            for role in CallRole.allCases {
                let refused = CallPermissions.capabilities(type: type, role: role).filter { !type.allowsAnyone($0) }
                XCTAssertEqual(refused, [], "\(type) \(role)")
            }
        }
        XCTAssertFalse(CallType.audioRoom.allowsAnyone(.sendVideo))
        XCTAssertTrue(CallType.audioRoom.allowsAnyone(.sendAudio))
    }

    func test_waitingOrTurnedAway_haveNoCapabilityAtAll() {
        for access in [CallAccess.waiting, .denied] {
            XCTAssertEqual(CallPermissions.capabilities(of: access, in: .default, openCalls: true), [], access.name)
        }
    }

    func test_everyRole_everyCallType_hasTheCapabilitiesTheIssueLists() {
        let required: Set<OwnCapability> = [
            .createCall, .joinCall, .sendAudio, .sendVideo, .screenshare, .muteUsers, .blockUsers, .kickUser,
            .pinForEveryone, .endCall, .updateCall, .startRecording, .stopRecording,
        ]
        let everything = CallType.allCases.flatMap { type in CallRole.allCases.map { CallPermissions.capabilities(type: type, role: $0) } }
        XCTAssertTrue(required.isSubset(of: everything.reduce(into: Set()) { $0.formUnion($1) }))
        XCTAssertEqual(CallPermissions.capabilities(type: .default, role: .admin), CallPermissions.capabilities(type: .default, role: .host))
    }

    func test_audioRoomCreatedByAlice_ownCapabilitiesDifferForHostAndListener() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let created = try await alice.send(GetOrCreateCallRequest(cid: cid("audio_room:townhall"), members: [MemberRequest(userId: "bob")]))
        XCTAssertTrue(created.call.ownCapabilities.contains(.sendAudio))
        XCTAssertFalse(created.call.ownCapabilities.contains(.sendVideo))
        let bobs = try await bob.send(GetCallRequest(cid: cid("audio_room:townhall")))
        XCTAssertEqual(bobs.call.ownCapabilities, [.createCall, .readCall, .joinCall, .sendChat, .sendReaction, .raiseHand])
    }

    func test_nonMember_joiningDefaultCallById_isRefusedAsPrivate() async throws {
        let alice = try await connect("alice")
        let stranger = try await connect("stranger")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:open")))
        let refused = try await stranger.sendExpectingError(JoinCallRequest(cid: cid("default:open")))
        XCTAssertEqual(refused.code, .privateCall)
    }

    func test_openCallsServer_nonMemberJoiningById_isAllowedAsUser() async throws {
        let server = try await TestServer.start(openCalls: true)
        let alice = try await server.client("alice")
        let stranger = try await server.client("stranger")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:open")))
        let joined = try await stranger.send(JoinCallRequest(cid: cid("default:open")))
        await alice.close()
        await stranger.close()
        await server.stop()
        XCTAssertEqual(joined.call.session.participants.first?.role, .user)
        XCTAssertFalse(joined.call.ownCapabilities.contains(.endCall))
    }

    func test_plainMember_everyModerationRequest_isRefusedAsForbiddenNamingTheCapability() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let call = cid("default:standup")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))
        let aliceSession = try await alice.send(JoinCallRequest(cid: call)).sessionId
        let refusals: [(OwnCapability, ProtocolError)] = [
            (.ringCall, try await bob.sendExpectingError(RingCallRequest(cid: call))),
            (.endCall, try await bob.sendExpectingError(EndCallRequest(cid: call))),
            (.updateCall, try await bob.sendExpectingError(UpdateCallRequest(cid: call, backstage: true))),
            (.updateCallMember, try await bob.sendExpectingError(AddMembersRequest(cid: call, members: [MemberRequest(userId: "bob", role: .admin)]))),
            (.removeCallMember, try await bob.sendExpectingError(RemoveMembersRequest(cid: call, userIds: ["alice"]))),
            (.blockUsers, try await bob.sendExpectingError(BlockUserRequest(cid: call, userId: "alice"))),
            (.blockUsers, try await bob.sendExpectingError(UnblockUserRequest(cid: call, userId: "alice"))),
            (.muteUsers, try await bob.sendExpectingError(MuteUsersRequest(cid: call, userIds: ["alice"]))),
            (.kickUser, try await bob.sendExpectingError(KickUserRequest(cid: call, userId: "alice"))),
            (.pinForEveryone, try await bob.sendExpectingError(PinForEveryoneRequest(cid: call, userId: "alice", sessionId: aliceSession))),
            (.pinForEveryone, try await bob.sendExpectingError(UnpinForEveryoneRequest(cid: call, userId: "alice", sessionId: aliceSession))),
            (.startRecording, try await bob.sendExpectingError(StartRecordingRequest(cid: call))),
            (.stopRecording, try await bob.sendExpectingError(StopRecordingRequest(cid: call))),
            (.goLive, try await bob.sendExpectingError(GoLiveRequest(cid: call))),
            (.stopLive, try await bob.sendExpectingError(StopLiveRequest(cid: call))),
            (.startBroadcasting, try await bob.sendExpectingError(StartBroadcastingRequest(cid: call))),
            (.stopBroadcasting, try await bob.sendExpectingError(StopBroadcastingRequest(cid: call))),
        ]
        for (capability, error) in refusals {
            XCTAssertEqual(error.code, .forbidden, "\(capability)")
            XCTAssertTrue(error.message.contains(capability.rawValue), error.message)
        }
        // And nothing changed.
        let state = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertNil(state.endedAt)
        XCTAssertFalse(state.backstage || state.recording || state.broadcasting)
        XCTAssertEqual(state.recordingState, .noRecording)
        XCTAssertEqual(state.members.map(\.role), [.host, .user])
        XCTAssertEqual(state.blockedUsers, [])
        XCTAssertEqual(state.session.participants.map(\.userId), ["alice"])
    }

    func test_memberPromotedToAdmin_mayThenModerate() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let call = cid("default:standup")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "bob", role: .admin)]))
        let recording = try await bob.send(StartRecordingRequest(cid: call))
        XCTAssertTrue(recording.call.recording)
    }

    func test_audioRoomListener_kickingTheHost_isRefused() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("audio_room:talk"), members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid("audio_room:talk")))
        _ = try await bob.send(JoinCallRequest(cid: cid("audio_room:talk")))
        let error = try await bob.sendExpectingError(KickUserRequest(cid: cid("audio_room:talk"), userId: "alice"))
        XCTAssertEqual(error.code, .forbidden)
    }

    // MARK: Reading needs readCall (issue 16, item 4)

    func test_blockedUser_getCall_isRefusedWithNothingOfTheCall() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:private")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "mallory")], custom: ["agenda": .string("secret")]))
        _ = try await alice.send(BlockUserRequest(cid: call, userId: "mallory"))

        let error = try await mallory.sendExpectingError(GetCallRequest(cid: call))
        XCTAssertEqual(error.code, .blockedFromCall)
        XCTAssertFalse(error.message.contains("secret"))
    }

    func test_blockedUser_getOrCreateExistingCall_isRefused() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:private")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call))
        _ = try await alice.send(BlockUserRequest(cid: call, userId: "mallory"))
        let error = try await mallory.sendExpectingError(GetOrCreateCallRequest(cid: call))
        XCTAssertEqual(error.code, .blockedFromCall)
    }

    func test_blockedMemberWatchingTheCall_hearsNoMoreOfItsEvents() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:private")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "mallory")]))
        _ = try await mallory.send(GetCallRequest(cid: call))
        _ = try await alice.send(BlockUserRequest(cid: call, userId: "mallory"))
        _ = try await mallory.nextEvent(.userBlocked)

        _ = try await alice.send(UpdateCallRequest(cid: call, custom: ["agenda": .string("after the block")]))
        try await mallory.barrier()
        let updates = await mallory.receivedEvents(.callUpdated)
        XCTAssertEqual(updates.count, 0, "a blocked member still received \(updates)")
    }

    // MARK: Creating a call that exists never hands it over (issue 16, item 8)

    func test_linkHolderCreatingAnExistingCall_getsItAsAUser_neverAsItsHost() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:standup")
        let secret = try await alice.send(GetOrCreateCallRequest(cid: call, custom: ["owner": .string("alice")])).call.linkSecret

        let taken = try await mallory.send(GetOrCreateCallRequest(
            cid: call, members: [MemberRequest(userId: "mallory", role: .host)], custom: ["owner": .string("mallory")],
            linkSecret: secret))
        XCTAssertFalse(taken.created)
        XCTAssertEqual(taken.call.createdBy, "alice")
        XCTAssertEqual(taken.call.members.map(\.userId), ["alice"])
        XCTAssertEqual(taken.call.custom, ["owner": .string("alice")])
        XCTAssertFalse(taken.call.ownCapabilities.contains(.endCall))
        let refused = try await mallory.sendExpectingError(EndCallRequest(cid: call))
        XCTAssertEqual(refused.code, .forbidden)
    }

    func test_strangerJoiningAnEndedCallWithCreate_doesNotReopenIt() async throws {
        let alice = try await connect("alice")
        let mallory = try await connect("mallory")
        let call = cid("default:standup")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call))
        _ = try await alice.send(EndCallRequest(cid: call))

        let refused = try await mallory.sendExpectingError(JoinCallRequest(cid: call, create: true))
        // A stranger learns that the call exists (creating it failed), not that it ended.
        XCTAssertEqual(refused.code, .privateCall)
        let read = try await alice.send(GetCallRequest(cid: call))
        XCTAssertNotNil(read.call.endedAt)
        XCTAssertEqual(read.call.createdBy, "alice")
    }
}
