import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// What a device says of its microphone: kept with its participant (a later joiner has it in
/// the state it joins with), relayed as `call.microphone_changed` when it changes.
final class MicrophoneTests: ServerTestCase {
    func test_microphoneSaidAtTheJoin_isInTheStateALaterJoinerGets() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let call = cid("default:standup")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))

        let alicesJoin = try await alice.send(JoinCallRequest(cid: call, microphoneOn: false))
        let bobsJoin = try await bob.send(JoinCallRequest(cid: call, microphoneOn: true))

        let participants = bobsJoin.call.session.participants
        XCTAssertEqual(participants.first { $0.sessionId == alicesJoin.sessionId }?.microphoneOn, false)
        XCTAssertEqual(participants.first { $0.sessionId == bobsJoin.sessionId }?.microphoneOn, true)
        try await alice.barrier()
        let joined = await alice.receivedEvents(.participantJoined).compactMap(\.joined).first { $0.participant.userId == "bob" }
        XCTAssertEqual(joined?.participant.microphoneOn, true, "the others hear it with the join")
    }

    /// bob joined without saying (a build before this), says it with a join again (his device
    /// rejoining on the same connection), then turns it off.
    func test_microphoneTurnedOff_everyoneHearsIt_andTheStateKeepsIt() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let bobsSession = try await bob.send(JoinCallRequest(cid: call, microphoneOn: true)).sessionId

        let response = try await bob.send(UpdateMicrophoneRequest(cid: call, on: false))

        XCTAssertEqual(response, EmptyResponse())
        try await alice.barrier()
        let seen = await alice.receivedEvents(.microphoneChanged).compactMap(\.microphone)
        XCTAssertEqual(seen, [true, false].map { MicrophoneEvent(cid: call, userId: "bob", sessionId: bobsSession, on: $0) })
        let state = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(state.session.participants.first { $0.sessionId == bobsSession }?.microphoneOn, false)
    }

    func test_sameStateAgain_saysNothingNew() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()

        _ = try await bob.send(UpdateMicrophoneRequest(cid: call, on: true))
        _ = try await bob.send(UpdateMicrophoneRequest(cid: call, on: true))
        _ = try await bob.send(UpdateMicrophoneRequest(cid: call, on: false))
        _ = try await bob.send(UpdateMicrophoneRequest(cid: call, on: false))

        try await alice.barrier()
        let seen = await alice.receivedEvents(.microphoneChanged).compactMap(\.microphone).map(\.on)
        XCTAssertEqual(seen, [true, false])
    }

    /// Past the burst a change is refused; saying the state the call already has is not a change.
    func test_toggleFlood_isRateLimited_andTheStateIsTheLastAllowed() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let burst = SessionRateLimits().microphone.burst

        var refusals: [ErrorCode] = []
        for change in 1...(burst + 6) {
            do {
                _ = try await bob.send(UpdateMicrophoneRequest(cid: call, on: change % 2 == 1))
            } catch let error as ProtocolError {
                refusals.append(error.code)
            }
        }

        // After the burst every other request repeats the state kept (accepted, no event).
        XCTAssertEqual(refusals, Array(repeating: .rateLimited, count: 3))
        try await alice.barrier()
        let seen = await alice.receivedEvents(.microphoneChanged).compactMap(\.microphone).map(\.on)
        XCTAssertEqual(seen, (1...burst).map { $0 % 2 == 1 })
        let state = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(state.session.participants.first { $0.userId == "bob" }?.microphoneOn, seen.last)
    }

    func test_fromSomeoneNotInTheCall_isRefused_andReachesNoOne() async throws {
        let (alice, _, call) = try await callWithAliceAndBobIn()
        let carol = try await connect("carol")
        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "carol")]))

        let refused = try await carol.sendExpectingError(UpdateMicrophoneRequest(cid: call, on: false))

        XCTAssertEqual(refused.code, .notInCall)
        try await alice.barrier()
        let seen = await alice.receivedEvents(.microphoneChanged)
        XCTAssertEqual(seen, [])
    }
}
