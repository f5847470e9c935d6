@testable import ConfabClient
import ConfabCore
import ConfabProtocol
import Foundation
import XCTest

/// Coordinator events → CallServiceEvents, from hand-written frames.
final class CallEventTranslator_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    /// Ten seconds into a thirty-second ring.
    private let now = Date(timeIntervalSince1970: 1_767_261_610)
    private let ring = WireJSON.ringing(startedAt: "2026-01-01T10:00:00.000Z", autoCancelAt: "2026-01-01T10:00:30.000Z")

    private func translator(for user: String = "bob", connection: String = "bob-laptop") -> CallEventTranslator {
        let now = now
        return CallEventTranslator(currentUserID: user, connectionID: connection, now: { now })
    }

    private func event(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> ServerEvent {
        guard case .event(let event) = try InboundFrame.decode(text) else {
            XCTFail("not an event", file: file, line: line)
            throw UnreadableFrame(reason: "not an event", text: text)
        }
        return event
    }

    private func ringEvent(caller: String = "alice") throws -> ServerEvent {
        let ringing = WireJSON.ringing(caller: caller, startedAt: "2026-01-01T10:00:00.000Z", autoCancelAt: "2026-01-01T10:00:30.000Z")
        return try event(WireJSON.event(
            "call.ring", #"{"call":\#(WireJSON.callState(ringing: ringing)),"callerId":"\#(caller)","memberIds":["bob"],"video":true}"#))
    }

    func test_ringFromAlice_translated_ringsBobWithCallerVideoMembersAndTheRestOfTheRing() throws {
        var subject = translator()
        let events = subject.translate(try ringEvent())
        XCTAssertEqual(events, [.ringing(IncomingCall(
            id: "standup", caller: User(id: "alice"), type: .default,
            members: [Member(user: User(id: "alice"), role: "host"), Member(user: User(id: "bob"), role: "user")],
            timeout: .seconds(20), video: true))])
    }

    func test_ringWhoseCallerIsTheCurrentUser_translated_doesNotRing() throws {
        var subject = translator(for: "alice", connection: "alice-phone")
        XCTAssertEqual(subject.translate(try ringEvent(caller: "alice")), [])
    }

    func test_ringWithClocksFarApart_translated_usesTheWholeRingLength() throws {
        var subject = CallEventTranslator(currentUserID: "bob", now: { Date(timeIntervalSince1970: 0) })
        guard case .ringing(let incoming) = subject.translate(try ringEvent()).first else { return XCTFail() }
        XCTAssertEqual(incoming.timeout, .seconds(30))
    }

    func test_acceptedFromThisConnection_translated_isByThisDevice() throws {
        var subject = translator()
        let accepted = try event(WireJSON.event(
            "call.accepted", #"{"call":\#(WireJSON.callState()),"userId":"bob","connectionId":"bob-laptop"}"#))
        XCTAssertEqual(subject.translate(accepted), [.accepted(standup, userID: "bob", byThisDevice: true)])
    }

    func test_acceptedFromOurOtherDevice_translated_isNotByThisDevice() throws {
        var subject = translator()
        let accepted = try event(WireJSON.event(
            "call.accepted", #"{"call":\#(WireJSON.callState()),"userId":"bob","connectionId":"bob-phone"}"#))
        XCTAssertEqual(subject.translate(accepted), [.accepted(standup, userID: "bob", byThisDevice: false)])
    }

    func test_busyRejectOfUsByTheServer_translated_isAlsoARingTurnedAway_butNotWhenADeviceOfOursRejected() throws {
        var subject = translator()
        let turnedAway = try event(WireJSON.event("call.rejected", #"""
            {"call":\#(WireJSON.callState(ringing: ring, rejectedBy: #"{"bob":"busy"}"#)),"userId":"bob","reason":"busy","connectionId":null}
            """#))
        let events = subject.translate(turnedAway)
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events.last, .ringTurnedAway(IncomingCall(
            id: "standup", caller: User(id: "alice"), type: .default,
            members: [Member(user: User(id: "alice"), role: "host"), Member(user: User(id: "bob"), role: "user")],
            timeout: .seconds(20), video: true)))

        // bob's own client said busy (it was in a lobby or another ring): it has seen the ring.
        let rejectedByBob = try event(WireJSON.event("call.rejected", #"""
            {"call":\#(WireJSON.callState(ringing: ring, rejectedBy: #"{"bob":"busy"}"#)),"userId":"bob","reason":"busy","connectionId":"bob-phone"}
            """#))
        XCTAssertEqual(subject.translate(rejectedByBob).count, 1)
    }

    func test_busyRejectSentByTheServer_translated_hasReasonSnapshotAndIsNotByThisDevice() throws {
        var subject = translator(for: "alice", connection: "alice-laptop")
        let rejected = try event(WireJSON.event("call.rejected", #"""
            {"call":\#(WireJSON.callState(rejectedBy: #"{"bob":"busy"}"#)),"userId":"bob","reason":"busy","connectionId":null}
            """#))
        guard case .rejected(let cid, let user, let reason, let here, let call) = subject.translate(rejected).first else { return XCTFail() }
        XCTAssertEqual(cid, standup)
        XCTAssertEqual(user, "bob")
        XCTAssertEqual(reason, .busy)
        XCTAssertFalse(here)
        XCTAssertEqual(call.rejectedBy, ["bob": .busy])
        XCTAssertEqual(call.createdBy, "alice")
    }

    func test_callEndedForEachReason_translated_saysWhyInWords() throws {
        let cases: [(String, String?, String)] = [
            ("ended", #""alice""#, "alice ended the call"),
            ("ended", "null", "The call ended"),
            ("unanswered", "null", "Nobody accepted the call"),
            ("timedOut", "null", "Nobody answered"),
            ("cancelled", #""alice""#, "alice cancelled the call"),
        ]
        for (reason, endedBy, words) in cases {
            var subject = translator()
            let ended = try event(WireJSON.event("call.ended", #"""
                {"call":\#(WireJSON.callState(endedAt: #""2026-01-01T10:01:00.000Z""#)),"reason":"\#(reason)","endedBy":\#(endedBy ?? "null")}
                """#))
            XCTAssertEqual(subject.translate(ended), [.ended(standup, reason: words)], reason)
        }
    }

    func test_missed_translated_isMissedForThatCall() throws {
        var subject = translator()
        let missed = try event(WireJSON.event("call.missed", #"{"call":\#(WireJSON.callState()),"callerId":"alice","userIds":["bob"]}"#))
        XCTAssertEqual(subject.translate(missed), [.missed(standup)])
    }

    func test_participantJoinedThenLeft_translated_namesTheParticipantAndUpdatesTheRememberedCall() throws {
        var subject = translator()
        _ = subject.translate(try event(WireJSON.event("call.updated", #"{"call":\#(WireJSON.callState())}"#)))
        let joined = try event(WireJSON.event(
            "call.session_participant_joined", #"{"cid":"default:standup","participant":\#(WireJSON.participant("carol", session: "s1"))}"#))
        guard case .participantJoined(let cid, let participant) = subject.translate(joined).first else { return XCTFail() }
        XCTAssertEqual(cid, standup)
        XCTAssertEqual(participant.user.id, "carol")
        XCTAssertEqual(participant.sessionID, "s1")
        XCTAssertEqual(subject.knownCalls[CallID(type: .default, id: "standup")]?.participants.map(\.sessionID), ["s1"])

        let left = try event(WireJSON.event(
            "call.session_participant_left",
            #"{"cid":"default:standup","participant":\#(WireJSON.participant("carol", session: "s1")),"reason":"left"}"#))
        XCTAssertEqual(subject.translate(left).count, 1)
        XCTAssertEqual(subject.knownCalls[CallID(type: .default, id: "standup")]?.participants, [])
    }

    func test_participantLeft_translated_tellsALostConnectionFromLeaving() throws {
        var subject = translator()
        func left(_ reason: String) throws -> Departure? {
            let frame = try event(WireJSON.event(
                "call.session_participant_left",
                #"{"cid":"default:standup","participant":\#(WireJSON.participant("carol", session: "s1")),"reason":"\#(reason)"}"#))
            guard case .participantLeft(_, _, let departure) = subject.translate(frame).first else { return nil }
            return departure
        }
        XCTAssertEqual(try left("disconnected"), .connectionLost)
        XCTAssertEqual(try left("left"), .left)
        XCTAssertEqual(try left("kicked"), .left)
    }

    func test_callUpdated_translated_givesTheNewSnapshot() throws {
        var subject = translator()
        let updated = try event(WireJSON.event("call.updated", #"{"call":\#(WireJSON.callState(members: ["alice", "bob", "carol"]))}"#))
        guard case .callUpdated(let call) = subject.translate(updated).first else { return XCTFail() }
        XCTAssertEqual(call.members.map(\.user.id), ["alice", "bob", "carol"])
        XCTAssertEqual(call.ownCapabilities, [.joinCall, .sendAudio, .endCall])
    }

    func test_pinnedForEveryone_translated_marksThatSessionPinnedInTheSnapshot() throws {
        var subject = translator()
        let participants = "[\(WireJSON.participant("alice", session: "a1")),\(WireJSON.participant("carol", session: "c1"))]"
        _ = subject.translate(try event(WireJSON.event("call.updated", #"{"call":\#(WireJSON.callState(participants: participants))}"#)))
        let pinned = try event(WireJSON.event("call.pinned", #"{"cid":"default:standup","userId":"carol","sessionId":"c1","byUserId":"alice"}"#))
        guard case .callUpdated(let call) = subject.translate(pinned).first else { return XCTFail() }
        XCTAssertEqual(call.participants.filter(\.isPinned).map(\.sessionID), ["c1"])
    }

    func test_currentUserBlocked_translated_updatesTheCallAndEndsItForThisDevice() throws {
        var subject = translator()
        _ = subject.translate(try event(WireJSON.event("call.updated", #"{"call":\#(WireJSON.callState())}"#)))
        let blocked = try event(WireJSON.event("call.blocked_user", #"{"cid":"default:standup","userId":"bob","byUserId":"alice"}"#))
        let events = subject.translate(blocked)
        XCTAssertEqual(events.count, 2)
        guard case .callUpdated(let call) = events.first else { return XCTFail() }
        XCTAssertEqual(call.blockedUserIDs, ["bob"])
        XCTAssertEqual(events.last, .ended(standup, reason: "alice blocked you from this call"))
    }

    func test_currentUserMuted_translated_namesTheModeratorAndTheTracks() throws {
        var subject = translator()
        let muted = try event(WireJSON.event(
            "call.user_muted", #"{"cid":"default:standup","userIds":["carol","bob"],"byUserId":"alice","audio":true,"video":true,"screenshare":false}"#))
        XCTAssertEqual(subject.translate(muted), [.mutedByModerator(standup, byUserID: "alice", tracks: [.microphone, .camera])])
    }

    func test_reaction_translated_namesTheSendersSessionAndTheEmoji() throws {
        var subject = translator()
        let reaction = try event(WireJSON.event("call.reaction", #"{"cid":"default:standup","userId":"carol","sessionId":"c1","emoji":"🎉"}"#))
        XCTAssertEqual(subject.translate(reaction), [.reaction(standup, sessionID: "c1", .party)])
    }

    func test_videoViewsUpdated_translated_namesTheViewersSessionAndEachCamerasSize() throws {
        var subject = translator()
        let update = try event(WireJSON.event("call.video_views_updated", #"""
            {"cid":"default:standup","userId":"carol","sessionId":"c1","views":[{"sessionId":"b1","width":430,"height":242},{"sessionId":"a1","width":1280,"height":720}]}
            """#))

        XCTAssertEqual(subject.translate(update), [.videoViews(standup, viewerSessionID: "c1", views: [
            "b1": VideoSize(width: 430, height: 242), "a1": VideoSize(width: 1280, height: 720),
        ])])
    }

    func test_videoViewsUpdated_withNoViews_translated_saysTheViewerShowsNoCamera() throws {
        var subject = translator()
        let update = try event(WireJSON.event("call.video_views_updated", #"{"cid":"default:standup","userId":"carol","sessionId":"c1","views":[]}"#))

        XCTAssertEqual(subject.translate(update), [.videoViews(standup, viewerSessionID: "c1", views: [:])])
    }

    func test_videoViewsUpdated_withTwoViewsOfOneCamera_translated_keepsTheLarger() throws {
        var subject = translator()
        // The coordinator refuses these; a translator that trusted it would crash on the duplicate key.
        for views in [#"[{"sessionId":"b1","width":320,"height":180},{"sessionId":"b1","width":640,"height":360}]"#,
                      #"[{"sessionId":"b1","width":640,"height":360},{"sessionId":"b1","width":320,"height":180}]"#] {
            let update = try event(WireJSON.event("call.video_views_updated", #"{"cid":"default:standup","userId":"carol","sessionId":"c1","views":"# + views + "}"))

            XCTAssertEqual(subject.translate(update), [.videoViews(standup, viewerSessionID: "c1", views: ["b1": VideoSize(width: 640, height: 360)])], views)
        }
    }

    func test_waitingRoomEvents_translated_listAndUnlistKnocks_andAnswerOurs() throws {
        var subject = translator()
        _ = subject.translate(try event(WireJSON.event("call.updated", #"{"call":\#(WireJSON.callState())}"#)))
        let knocked = try event(WireJSON.event(
            "call.participant_knocked", #"{"cid":"default:standup","knock":{"userId":"eve","knockedAt":"2026-01-01T10:00:05.000Z"}}"#))
        guard case .knocked(let cid, let knock) = subject.translate(knocked).first else { return XCTFail("no knock") }
        XCTAssertEqual(cid, standup)
        XCTAssertEqual(knock.userId, "eve")
        XCTAssertEqual(subject.knownCalls[standup]?.knocks.map(\.userId), ["eve"], "a later call update would forget eve")

        let resolved = try event(WireJSON.event(
            "call.knock_resolved", #"{"cid":"default:standup","userId":"eve","outcome":"admitted","byUserId":"alice"}"#))
        XCTAssertEqual(subject.translate(resolved), [.knockResolved(standup, userID: "eve", outcome: .admitted, byUserID: "alice")])
        XCTAssertEqual(subject.knownCalls[standup]?.knocks, [])

        XCTAssertEqual(subject.translate(try event(WireJSON.event("call.join_admitted", #"{"cid":"default:standup"}"#))),
                       [.joinAnswered(standup, admitted: true)])
        XCTAssertEqual(subject.translate(try event(WireJSON.event("call.join_denied", #"{"cid":"default:standup"}"#))),
                       [.joinAnswered(standup, admitted: false)])
    }

    func test_eventsTheAppHasNoUseFor_translated_giveNothing() throws {
        var subject = translator()
        let ignored = [
            WireJSON.event("health.check", #"{"connectionId":"bob-laptop","serverTime":"2026-01-01T10:00:00.000Z"}"#),
            WireJSON.event("call.poll_started", "{}"),
            // Someone else muted: only their devices act.
            WireJSON.event("call.user_muted", #"{"cid":"default:standup","userIds":["carol"],"byUserId":"alice","audio":true,"video":false,"screenshare":false}"#),
            // Pinning in a call this device never saw: nothing to update.
            WireJSON.event("call.pinned", #"{"cid":"default:other","userId":"carol","sessionId":"c1","byUserId":"alice"}"#),
        ]
        for text in ignored {
            XCTAssertEqual(subject.translate(try event(text)), [], text)
        }
    }

    func test_joinAnswerMedia_converted_keepsTheJanusRoomAndRefusesImpossibleRooms() {
        XCTAssertEqual(MediaEndpointInfo(MediaEndpoint(janusURL: "ws://127.0.0.1:8188", room: 42, token: "t")),
                       MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t"))
        XCTAssertNil(MediaEndpointInfo(MediaEndpoint(janusURL: "ws://127.0.0.1:8188", room: 0, token: "t")))
        XCTAssertNil(MediaEndpointInfo(MediaEndpoint(janusURL: "", room: 1, token: "t")))
    }
}
