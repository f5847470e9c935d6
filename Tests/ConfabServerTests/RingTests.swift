import ConfabProtocol
import Foundation
import XCTest

/// The ring rules, one test each. The auto-cancel timeout is long here, so only the rule under
/// test ends a ring (`RingTimeoutTests` covers the timeout).
final class RingTests: ServerTestCase {
    private let call = CallID(type: .default, id: "alice-bob")

    /// Alice rings `members` in a new call.
    @discardableResult
    private func ring(from caller: TestClient, _ members: [String], cid: CallID? = nil) async throws -> GetOrCreateCallResponse {
        try await caller.send(GetOrCreateCallRequest(
            cid: cid ?? call, members: members.map { MemberRequest(userId: $0) }, ring: true, video: true))
    }

    func test_callerWithTwoDevices_ringing_isNotRungOnEitherDevice() async throws {
        let alice = try await connect("alice")
        let alicePhone = try await connect("alice")
        let bob = try await connect("bob")
        try await ring(from: alice, ["bob"])
        let rung = try await bob.nextEvent(.callRing)
        XCTAssertEqual(rung.ring?.callerId, "alice")
        XCTAssertEqual(rung.ring?.memberIds, ["bob"])
        XCTAssertEqual(rung.ring?.video, true)
        try await alice.barrier()
        try await alicePhone.barrier()
        let aliceRings = await alice.receivedEvents(.callRing)
        let phoneRings = await alicePhone.receivedEvents(.callRing)
        XCTAssertTrue(aliceRings.isEmpty)
        XCTAssertTrue(phoneRings.isEmpty)
    }

    func test_membersWithSeveralDevices_ringing_reachesEveryDevice() async throws {
        let alice = try await connect("alice")
        let bobLaptop = try await connect("bob")
        let bobPhone = try await connect("bob")
        let carol = try await connect("carol")
        let response = try await ring(from: alice, ["bob", "carol"])
        XCTAssertEqual(response.call.session.ringing?.memberIds, ["bob", "carol"])
        for device in [bobLaptop, bobPhone, carol] {
            let event = try await device.nextEvent(.callRing)
            XCTAssertEqual(event.ring?.call.cid, call)
        }
    }

    func test_deviceConnectingDuringRing_isRungToo() async throws {
        let alice = try await connect("alice")
        try await ring(from: alice, ["bob"])
        let bobLate = try await connect("bob")
        let event = try await bobLate.nextEvent(.callRing)
        XCTAssertEqual(event.ring?.callerId, "alice")
    }

    func test_calleeIncomingTimerRunsOut_rejectWithTimeout_isAcceptedAndRecorded() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let carol = try await connect("carol")
        try await ring(from: alice, ["bob", "carol"])
        _ = try await bob.nextEvent(.callRing)
        let response = try await bob.send(RejectCallRequest(cid: call, reason: .timeout))
        XCTAssertEqual(response.call.session.rejectedBy["bob"], .timeout)
        let seenByCaller = try await alice.nextEvent(.callRejected)
        XCTAssertEqual(seenByCaller.rejected?.userId, "bob")
        XCTAssertEqual(seenByCaller.rejected?.reason, .timeout)
        // Carol is still being rung: one callee's timeout is not the end of the ring.
        XCTAssertEqual(seenByCaller.rejected?.call.session.ringing?.memberIds, ["bob", "carol"])
        _ = try await carol.send(AcceptCallRequest(cid: call))
    }

    func test_everyCalleeRejects_callEndsAsUnansweredAndCallerIsTold() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let carol = try await connect("carol")
        try await ring(from: alice, ["bob", "carol"])
        _ = try await bob.send(RejectCallRequest(cid: call, reason: .decline))
        _ = try await carol.send(RejectCallRequest(cid: call))
        let ended = try await alice.nextEvent(.callEnded)
        XCTAssertEqual(ended.ended?.reason, .unanswered)
        XCTAssertNil(ended.ended?.endedBy)
        XCTAssertNotNil(ended.ended?.call.endedAt)
        XCTAssertEqual(ended.ended?.call.session.rejectedBy, ["bob": .decline, "carol": .decline])
        XCTAssertNil(ended.ended?.call.session.ringing)
    }

    func test_oneOfTwoCalleesRejects_callGoesOn() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let carol = try await connect("carol")
        try await ring(from: alice, ["bob", "carol"])
        _ = try await bob.send(RejectCallRequest(cid: call))
        _ = try await carol.send(AcceptCallRequest(cid: call))
        let accepted = try await alice.nextEvent(.callAccepted)
        XCTAssertEqual(accepted.accepted?.userId, "carol")
        try await alice.barrier()
        let ends = await alice.receivedEvents(.callEnded)
        XCTAssertTrue(ends.isEmpty)
    }

    func test_callerCancels_ringStopsOnEveryCalleeDeviceAndCallEnds() async throws {
        let alice = try await connect("alice")
        let bobLaptop = try await connect("bob")
        let bobPhone = try await connect("bob")
        let carol = try await connect("carol")
        try await ring(from: alice, ["bob", "carol"])
        let response = try await alice.send(RejectCallRequest(cid: call, reason: .cancel))
        XCTAssertNil(response.call.session.ringing)
        for device in [bobLaptop, bobPhone, carol] {
            let cancel = try await device.nextEvent(.callRejected)
            XCTAssertEqual(cancel.rejected?.userId, "alice")
            XCTAssertEqual(cancel.rejected?.reason, .cancel)
            let ended = try await device.nextEvent(.callEnded)
            XCTAssertEqual(ended.ended?.reason, .cancelled)
        }
    }

    func test_callerHangsUpBeforeAnyoneAnswers_leaveCancelsTheRing() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        try await ring(from: alice, ["bob"])
        _ = try await alice.send(LeaveCallRequest(cid: call))
        let cancel = try await bob.nextEvent(.callRejected)
        XCTAssertEqual(cancel.rejected?.reason, .cancel)
        let ended = try await bob.nextEvent(.callEnded)
        XCTAssertEqual(ended.ended?.reason, .cancelled)
    }

    func test_callersAppGoesAwayWhileRinging_ringIsCancelled() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        try await ring(from: alice, ["bob"])
        _ = try await bob.nextEvent(.callRing)
        await alice.close()
        let cancel = try await bob.nextEvent(.callRejected)
        XCTAssertEqual(cancel.rejected?.userId, "alice")
        XCTAssertEqual(cancel.rejected?.reason, .cancel)
    }

    func test_calleeAcceptsOnOneDevice_theirOtherDevicesGetAcceptedNamingThatDevice() async throws {
        let alice = try await connect("alice")
        let bobLaptop = try await connect("bob")
        let bobPhone = try await connect("bob")
        try await ring(from: alice, ["bob"])
        _ = try await bobPhone.nextEvent(.callRing)
        let response = try await bobLaptop.send(AcceptCallRequest(cid: call))
        XCTAssertNotNil(response.call.session.acceptedBy["bob"])
        let laptopId = await bobLaptop.connectionId
        let onPhone = try await bobPhone.nextEvent(.callAccepted)
        XCTAssertEqual(onPhone.accepted?.userId, "bob")
        XCTAssertEqual(onPhone.accepted?.connectionId, laptopId)
        let onCaller = try await alice.nextEvent(.callAccepted)
        XCTAssertEqual(onCaller.accepted?.userId, "bob")
        // Everyone answered, so the ring is over and the call goes on.
        XCTAssertNil(onCaller.accepted?.call.session.ringing)
        XCTAssertNil(onCaller.accepted?.call.endedAt)
    }

    func test_calleeDeclinesOnOneDevice_theirOtherDevicesGetRejected() async throws {
        let alice = try await connect("alice")
        let bobLaptop = try await connect("bob")
        let bobPhone = try await connect("bob")
        try await ring(from: alice, ["bob"])
        _ = try await bobLaptop.send(RejectCallRequest(cid: call, reason: .decline))
        let laptopId = await bobLaptop.connectionId
        let onPhone = try await bobPhone.nextEvent(.callRejected)
        XCTAssertEqual(onPhone.rejected?.userId, "bob")
        XCTAssertEqual(onPhone.rejected?.connectionId, laptopId)
    }

    func test_calleeJoiningWhileRung_countsAsAccepting() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        try await ring(from: alice, ["bob"])
        _ = try await bob.send(JoinCallRequest(cid: call))
        let accepted = try await alice.nextEvent(.callAccepted)
        XCTAssertEqual(accepted.accepted?.userId, "bob")
        let joined = try await alice.nextEvent(.participantJoined)
        XCTAssertEqual(joined.joined?.participant.userId, "bob")
    }

    func test_calleeAlreadyInAnotherCall_isRejectedAsBusyWithoutRinging() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let bobPhone = try await connect("bob")
        _ = try await bob.send(JoinCallRequest(cid: cid("default:other"), create: true))
        try await ring(from: alice, ["bob"])
        let busy = try await alice.nextEvent(.callRejected)
        XCTAssertEqual(busy.rejected?.userId, "bob")
        XCTAssertEqual(busy.rejected?.reason, .busy)
        XCTAssertNil(busy.rejected?.connectionId)
        // Bob was the only callee: the call ends as unanswered.
        let ended = try await alice.nextEvent(.callEnded)
        XCTAssertEqual(ended.ended?.reason, .unanswered)
        try await bob.barrier()
        try await bobPhone.barrier()
        let laptopRings = await bob.receivedEvents(.callRing)
        let phoneRings = await bobPhone.receivedEvents(.callRing)
        XCTAssertTrue(laptopRings.isEmpty)
        XCTAssertTrue(phoneRings.isEmpty)
    }

    func test_callEndedWhileRinging_ringingDevicesGetEnded() async throws {
        let alice = try await connect("alice")
        let bobLaptop = try await connect("bob")
        let bobPhone = try await connect("bob")
        try await ring(from: alice, ["bob"])
        _ = try await alice.send(EndCallRequest(cid: call))
        for device in [bobLaptop, bobPhone] {
            let ended = try await device.nextEvent(.callEnded)
            XCTAssertEqual(ended.ended?.reason, .ended)
            XCTAssertNil(ended.ended?.call.session.ringing)
        }
    }

    func test_memberNotBeingRung_accepting_isRefusedAsNotRinging() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))
        let error = try await bob.sendExpectingError(AcceptCallRequest(cid: call))
        XCTAssertEqual(error.code, .notRinging)
    }

    func test_callerAcceptingTheirOwnRing_isRefusedAsNotRinging() async throws {
        let alice = try await connect("alice")
        try await ring(from: alice, ["bob"])
        let error = try await alice.sendExpectingError(AcceptCallRequest(cid: call))
        XCTAssertEqual(error.code, .notRinging)
    }

    func test_lateReject_afterRingIsOver_isHarmless() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))
        let response = try await bob.send(RejectCallRequest(cid: call, reason: .timeout))
        XCTAssertNil(response.call.endedAt)
        XCTAssertEqual(response.call.session.rejectedBy, [:])
    }

    func test_ringingSomeoneWhoIsNotAMember_isRefusedAsNotAMember() async throws {
        let alice = try await connect("alice")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))
        let error = try await alice.sendExpectingError(RingCallRequest(cid: call, memberIds: ["mallory"]))
        XCTAssertEqual(error.code, .notAMember)
        XCTAssertTrue(error.message.contains("mallory"), error.message)
    }

    func test_ringingACallWithNoOtherMembers_isRefusedAndCreatesNothing() async throws {
        let alice = try await connect("alice")
        let error = try await alice.sendExpectingError(GetOrCreateCallRequest(cid: call, ring: true))
        XCTAssertEqual(error.code, .invalidRequest)
        let missing = try await alice.sendExpectingError(GetCallRequest(cid: call))
        XCTAssertEqual(missing.code, .callNotFound)
    }

    func test_existingCall_ringCallRequest_ringsTheNamedMembersOnly() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let carol = try await connect("carol")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob"), MemberRequest(userId: "carol")]))
        let response = try await alice.send(RingCallRequest(cid: call, memberIds: ["carol"]))
        XCTAssertEqual(response.call.session.ringing?.memberIds, ["carol"])
        _ = try await carol.nextEvent(.callRing)
        try await bob.barrier()
        let bobRings = await bob.receivedEvents(.callRing)
        XCTAssertTrue(bobRings.isEmpty)
    }

    func test_endedCall_ringingAgain_reopensItWithAFreshSession() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        try await ring(from: alice, ["bob"])
        _ = try await bob.send(RejectCallRequest(cid: call))
        _ = try await alice.nextEvent(.callEnded)
        let again = try await ring(from: alice, ["bob"])
        XCTAssertTrue(again.created)
        XCTAssertNil(again.call.endedAt)
        XCTAssertEqual(again.call.session.rejectedBy, [:])
        let rung = try await bob.nextEvent(.callRing, matching: { $0.ring?.call.endedAt == nil })
        XCTAssertEqual(rung.ring?.callerId, "alice")
    }
}

/// The server's auto-cancel timer, short here.
final class RingTimeoutTests: ServerTestCase {
    override var ringTimeout: Duration { .milliseconds(300) }
    private let call = CallID(type: .default, id: "alice-bob")

    func test_nobodyAnswersBeforeAutoCancel_calleesAndCallerGetMissedAndCallEndsTimedOut() async throws {
        let alice = try await connect("alice")
        let bobLaptop = try await connect("bob")
        let bobPhone = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")], ring: true))
        for device in [bobLaptop, bobPhone, alice] {
            let missed = try await device.nextEvent(.callMissed)
            XCTAssertEqual(missed.missed?.callerId, "alice")
            XCTAssertEqual(missed.missed?.userIds, ["bob"])
            let ended = try await device.nextEvent(.callEnded)
            XCTAssertEqual(ended.ended?.reason, .timedOut)
            XCTAssertEqual(ended.ended?.call.session.missedBy, ["bob"])
        }
    }

    func test_oneCalleeAcceptedBeforeAutoCancel_onlyTheSilentOneMissesAndCallGoesOn() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let carol = try await connect("carol")
        _ = try await alice.send(GetOrCreateCallRequest(
            cid: call, members: [MemberRequest(userId: "bob"), MemberRequest(userId: "carol")], ring: true))
        _ = try await bob.send(AcceptCallRequest(cid: call))
        let missed = try await carol.nextEvent(.callMissed)
        XCTAssertEqual(missed.missed?.userIds, ["carol"])
        XCTAssertNil(missed.missed?.call.endedAt)
        try await bob.barrier()
        let bobMissed = await bob.receivedEvents(.callMissed)
        XCTAssertTrue(bobMissed.isEmpty)
    }

    func test_ringAnsweredInTime_autoCancelTimerDoesNothingLater() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")], ring: true))
        _ = try await bob.send(AcceptCallRequest(cid: call))
        // Only time can tell that nothing happens: wait past the timeout, then check.
        try await Task.sleep(for: .milliseconds(600))
        try await alice.barrier()
        let missed = await alice.receivedEvents(.callMissed)
        let ended = await alice.receivedEvents(.callEnded)
        XCTAssertTrue(missed.isEmpty)
        XCTAssertTrue(ended.isEmpty)
    }
}
