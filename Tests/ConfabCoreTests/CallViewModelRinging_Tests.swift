@testable import ConfabCore
import Foundation
import XCTest

/// The client-side ring rules, one behaviour per test, against a fake coordinator.
final class CallViewModelRinging_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private let bob = User(id: "bob", name: "Bob")

    @MainActor private func makeSubject(user: String = "ada") -> (CallViewModel, FakeCallService) {
        let service = FakeCallService(currentUserID: user)
        return (CallViewModel(currentUser: User(id: user, name: user.capitalized), callService: service), service)
    }

    @MainActor private func incoming(from caller: User? = nil, timeout: Duration = .seconds(30)) -> IncomingCall {
        IncomingCall(id: "standup", caller: caller ?? bob, type: .default, members: [], timeout: timeout, video: true)
    }

    @MainActor private func run(_ action: @escaping @MainActor () async -> Void) {
        var done = false
        Task { await action(); done = true }
        waitUntil { done }
    }

    @MainActor private func snapshot() -> CallSnapshot { CallSnapshot(id: standup, createdBy: "ada") }

    // MARK: Outgoing

    func test_idle_startCallWithRing_isOutgoingWithMembersRung() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: ["bob", "ada"]) }
        XCTAssertEqual(subject.callingState, .outgoing)
        XCTAssertEqual(subject.outgoingCallMembers.map(\.user.id), ["bob"], "the caller is not rung")
        XCTAssertEqual(service.requests, ["getOrCreate default:standup members=bob ring=true"])
    } }

    func test_outgoing_calleeAccepts_joinsAndIsInCall() { onMain {
        let (subject, service) = makeSubject()
        service.participantsOnJoin = [CallParticipant(user: bob, sessionID: "s-bob", role: "user", joinedAt: Date())]
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: ["bob"]) }
        service.send(.accepted(standup, userID: "bob", byThisDevice: false))
        waitUntil { subject.callingState == .inCall }
        XCTAssertEqual(subject.activeCall?.participants["s-bob"]?.user, bob)
        XCTAssertEqual(service.joined.map(\.0), [standup])
    } }

    func test_outgoing_onlyCalleeDeclines_backToIdleSayingWho() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: ["bob"]) }
        service.send(.rejected(standup, userID: "bob", reason: .decline, byThisDevice: false, call: snapshot()))
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(subject.toast?.message, "bob declined")
        XCTAssertEqual(subject.endedCall?.reason, "bob declined")
    } }

    func test_outgoing_calleeBusy_saysBusy() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: ["bob"]) }
        service.send(.rejected(standup, userID: "bob", reason: .busy, byThisDevice: false, call: snapshot()))
        XCTAssertEqual(subject.toast?.message, "bob is busy")
    } }

    func test_outgoing_oneOfTwoDeclines_keepsRinging_untilAllHave() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: ["bob", "cy"]) }
        service.send(.rejected(standup, userID: "bob", reason: .decline, byThisDevice: false, call: snapshot()))
        XCTAssertEqual(subject.callingState, .outgoing)
        service.send(.rejected(standup, userID: "cy", reason: .timeout, byThisDevice: false, call: snapshot()))
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(subject.toast?.message, "Nobody answered")
    } }

    func test_outgoing_serverTimesOut_missed_backToIdle() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: ["bob"]) }
        service.send(.missed(standup))
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(subject.toast?.message, "No answer")
    } }

    func test_outgoing_hangUp_cancelsRing() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: ["bob"]) }
        run { await subject.hangUp() }
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(service.requests.last, "reject default:standup cancel")
    } }

    func test_hangUpWhileCallIsBeingCreated_cancelsRingOnceCreated() { onMain {
        let (subject, service) = makeSubject()
        service.holdCreate = true
        var started = false
        Task { await subject.startCall(CallID(type: .default, id: "standup"), members: ["bob"]); started = true }
        waitUntil { service.requests.count == 1 }
        run { await subject.hangUp() }
        XCTAssertEqual(subject.callingState, .idle)
        service.releaseCreate()
        waitUntil { started }
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(service.requests.last, "reject default:standup cancel")
    } }

    func test_startCallWithoutRing_joinsDirectly() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false) }
        XCTAssertEqual(subject.callingState, .inCall)
        // (The chat history is loaded after joining, in its own task: not part of joining.)
        XCTAssertEqual(service.requests.filter { !$0.hasPrefix("chat history") }, ["getOrCreate default:standup members= ring=false", "join default:standup"])
    } }

    func test_startCallRefused_backToIdleWithReason() { onMain {
        let (subject, service) = makeSubject()
        service.failure = CallError("You may not create calls of type audio_room")
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: ["bob"]) }
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(subject.toast?.message, "Couldn’t start the call: You may not create calls of type audio_room")
    } }

    // MARK: Incoming

    func test_idle_ring_showsIncomingWithCaller() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming()))
        XCTAssertEqual(subject.callingState, .incoming(incoming()))
    } }

    func test_incoming_sameRingAgainAfterReconnect_keepsRinging_notBusy() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming()))
        service.send(.ringing(incoming()))
        settle()
        XCTAssertEqual(subject.callingState, .incoming(incoming()))
        XCTAssertTrue(service.requests.isEmpty, "\(service.requests)")
    } }

    func test_ringFromOurselves_isIgnored() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming(from: User(id: "ada"))))
        XCTAssertEqual(subject.callingState, .idle)
    } }

    func test_incoming_accept_joinsAndIsInCall() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming()))
        run { await subject.acceptCall(CallID(type: .default, id: "standup")) }
        XCTAssertEqual(subject.callingState, .inCall)
        XCTAssertEqual(service.requests.filter { !$0.hasPrefix("chat history") }, ["accept default:standup", "join default:standup"])
    } }

    func test_incoming_decline_rejectsWithDecline() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming()))
        run { await subject.rejectCall(CallID(type: .default, id: "standup")) }
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(service.requests, ["reject default:standup decline"])
    } }

    func test_incomingNotAnswered_rejectsWithTimeout_notASilentDismiss() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming(timeout: .milliseconds(50))))
        waitUntil { service.requests == ["reject default:standup timeout"] }
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(subject.toast?.message, "Missed call from Bob")
    } }

    func test_incomingAnswered_timeoutDoesNotFireLater() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming(timeout: .milliseconds(50))))
        run { await subject.acceptCall(CallID(type: .default, id: "standup")) }
        RunLoop.main.run(until: Date().addingTimeInterval(0.15))
        XCTAssertEqual(subject.callingState, .inCall)
        XCTAssertFalse(service.requests.contains("reject default:standup timeout"))
    } }

    func test_incoming_callerCancels_backToIdle() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming()))
        service.send(.rejected(standup, userID: "bob", reason: .cancel, byThisDevice: false, call: snapshot()))
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(subject.toast?.message, "Missed call from Bob")
    } }

    func test_incoming_anotherCalleeDeclines_keepsRinging() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming()))
        service.send(.rejected(standup, userID: "cy", reason: .decline, byThisDevice: false, call: snapshot()))
        XCTAssertEqual(subject.callingState.name, "incoming")
    } }

    func test_incoming_acceptedOnAnotherDevice_stopsRingingHere() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming()))
        service.send(.accepted(standup, userID: "ada", byThisDevice: false))
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(subject.toast?.message, "Answered on another device")
    } }

    func test_incoming_declinedOnAnotherDevice_stopsRingingHere() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming()))
        service.send(.rejected(standup, userID: "ada", reason: .decline, byThisDevice: false, call: snapshot()))
        XCTAssertEqual(subject.callingState, .idle)
    } }

    func test_incoming_callEnded_dismissesRing() { onMain {
        let (subject, service) = makeSubject()
        service.send(.ringing(incoming()))
        service.send(.ended(standup, reason: "Bob ended the call"))
        XCTAssertEqual(subject.callingState, .idle)
    } }

    func test_inCall_ringForAnotherCall_rejectedAsBusy() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false) }
        service.send(.ringing(IncomingCall(id: "other", caller: bob, type: .default, members: [], timeout: .seconds(30), video: true)))
        waitUntil { service.requests.last == "reject default:other busy" }
        XCTAssertEqual(subject.callingState, .inCall)
    } }

    // MARK: Missed calls

    @MainActor private func recordingMissedCalls(_ subject: CallViewModel) -> () -> [MissedCall] {
        var missed: [MissedCall] = []
        subject.onMissedCall = { missed.append($0) }
        return { missed }
    }

    /// In the standup call, with the missed calls told so far, and bob's ring for another call.
    @MainActor private func inCallAndRungElsewhere(video: Bool) -> (CallViewModel, FakeCallService, () -> [MissedCall], IncomingCall) {
        let (subject, service) = makeSubject()
        let missed = recordingMissedCalls(subject)
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false) }
        return (subject, service, missed, IncomingCall(id: "other", caller: bob, type: .default, members: [], timeout: .seconds(30), video: video))
    }

    /// Our own busy rejection (the coordinator turns rings away only from those in a call, so
    /// this one covers a lobby, a ring of ours or another ring in progress).
    func test_busy_ringForAnotherCall_isToldInTheCall_andOnceAsMissedWhileBusy() { onMain {
        let (subject, service, missed, ring) = inCallAndRungElsewhere(video: true)
        service.send(.ringing(ring))
        XCTAssertEqual(subject.toast?.message, "Bob called you and was told you are busy")
        XCTAssertEqual(subject.toast?.call, standup, "shown in the call's window")
        XCTAssertEqual(missed(), [MissedCall(ring: ring, whileBusy: true)])
        // The coordinator sends a ring again after a reconnect: rejected again, told once.
        service.send(.ringing(ring))
        waitUntil { service.requests.filter { $0 == "reject default:other busy" }.count == 2 }
        XCTAssertEqual(missed().count, 1)
    } }

    func test_inCall_ringTheCoordinatorTurnedAway_isToldOnce_andNotRejectedAgain() { onMain {
        let (subject, service, missed, ring) = inCallAndRungElsewhere(video: false)
        service.send(.ringTurnedAway(ring))
        service.send(.ringTurnedAway(ring))
        XCTAssertEqual(subject.toast?.message, "Bob called you and was told you are busy")
        XCTAssertEqual(missed(), [MissedCall(ring: ring, whileBusy: true)])
        settle(seconds: 0.1)
        XCTAssertFalse(service.requests.contains { $0.hasPrefix("reject") }, "the coordinator has rejected it already")
        XCTAssertEqual(subject.callingState, .inCall)
    } }

    func test_ringThatRangOut_callerGaveUp_orCallEnded_areMissed_declinedOrAnsweredElsewhereAreNot() { onMain {
        let (subject, service) = makeSubject()
        let missed = recordingMissedCalls(subject)
        let ringingOut = incoming(timeout: .milliseconds(50))
        service.send(.ringing(ringingOut))
        waitUntil { subject.callingState == .idle }
        XCTAssertEqual(missed(), [MissedCall(ring: ringingOut, whileBusy: false)], "rang out")
        XCTAssertEqual(subject.endedCall?.missed, missed().first, "the call-ended page offers to call back")

        for ending in [CallServiceEvent.rejected(standup, userID: "bob", reason: .cancel, byThisDevice: false, call: snapshot()),
                       .ended(standup, reason: "Bob ended the call"), .missed(standup)] {
            service.send(.ringing(incoming()))
            service.send(ending)
            XCTAssertEqual(subject.callingState, .idle)
        }
        XCTAssertEqual(missed().count, 4, "the caller cancelled, ended the call, or the coordinator gave up")

        service.send(.ringing(incoming()))
        run { await subject.rejectCall(self.standup) }
        service.send(.ringing(incoming()))
        service.send(.accepted(standup, userID: "ada", byThisDevice: false))
        service.send(.ringing(incoming()))
        service.send(.rejected(standup, userID: "ada", reason: .decline, byThisDevice: false, call: snapshot()))
        XCTAssertEqual(missed().count, 4, "declined here, answered or declined on another device: not missed")
        XCTAssertNil(subject.endedCall?.missed)
    } }

    func test_callBack_ringsTheCallerInANewCall_butNotInTheMiddleOfAnother() { onMain {
        let (subject, service) = makeSubject()
        let missed = MissedCall(ring: incoming(), whileBusy: true)
        run { await subject.startCall(CallID(type: .default, id: "retro"), members: [], ring: false) }
        XCTAssertFalse(subject.callBack(missed))
        XCTAssertEqual(subject.toast?.message, "You can call Bob back when this call ends")
        run { await subject.hangUp() }

        XCTAssertTrue(subject.callBack(missed))
        waitUntil { subject.callingState == .outgoing }
        XCTAssertNil(subject.toast, "the message that led here is not carried over the new call")
        let ring = try? XCTUnwrap(service.requests.last)
        XCTAssertTrue(ring?.hasPrefix("getOrCreate default:call-") == true && ring?.hasSuffix(" members=bob ring=true") == true,
                      ring ?? "no request")
    } }

    // MARK: In call

    func test_inCall_participantsFollowJoinAndLeave() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false) }
        let participant = CallParticipant(user: bob, sessionID: "s1", role: "user", joinedAt: Date())
        service.send(.participantJoined(standup, participant))
        XCTAssertEqual((subject.activeCall?.participants.count ?? 0), 1)
        service.send(.participantJoined(CallID(type: .default, id: "elsewhere"), participant))
        XCTAssertEqual((subject.activeCall?.participants.count ?? 0), 1, "events of other calls are ignored")
        service.send(.participantLeft(standup, participant))
        XCTAssertTrue((subject.activeCall?.participants.isEmpty ?? true))
    } }

    func test_inCall_hangUp_leavesAndIsIdle() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false) }
        run { await subject.hangUp() }
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(service.requests.last, "leave default:standup")
    } }

    func test_inCall_connectionLost_reconnecting_thenRejoinsWhenRestored() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false) }
        service.send(.connectionLost)
        XCTAssertEqual(subject.callingState, .reconnecting)
        service.send(.connectionRestored)
        waitUntil { subject.callingState == .inCall }
        XCTAssertEqual(service.joined.count, 2)
    } }

    func test_inCall_blockedByHost_leavesWithReason() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false) }
        service.send(.callUpdated(CallSnapshot(id: standup, createdBy: "bob", blockedUserIDs: ["ada"])))
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(subject.endedCall?.reason, "You were removed from the call")
    } }

    func test_inCall_endedByHost_idleWithReason() { onMain {
        let (subject, service) = makeSubject()
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false) }
        service.send(.ended(standup, reason: "Bob ended the call"))
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertEqual(subject.endedCall?.reason, "Bob ended the call")
    } }

    // MARK: Lobby

    func test_lobby_showsWhoIsAlreadyInTheCall_andFollowsJoinsAndLeaves() { onMain {
        let (subject, service) = makeSubject()
        subject.enterLobby(CallID(type: .default, id: "standup"), members: [])
        waitUntil { service.requests == ["get default:standup"] }
        let carol = CallParticipant(user: User(id: "carol"), sessionID: "s-c", role: "user", joinedAt: Date())
        service.send(.participantJoined(standup, carol))
        guard case .lobby(let info) = subject.callingState else { return XCTFail("left the lobby") }
        XCTAssertEqual(info.participants.map(\.user.id), ["carol"])
        service.send(.participantLeft(standup, carol))
        guard case .lobby(let after) = subject.callingState else { return XCTFail("left the lobby") }
        XCTAssertEqual(after.participants, [])
    } }
}
