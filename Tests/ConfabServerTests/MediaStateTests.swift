import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// What a device says of its microphone and camera: kept with its participant (a later joiner
/// has it in the state it joins with), relayed as `call.media_state_changed` when it changes.
final class MediaStateTests: ServerTestCase {
    func test_stateSaidAtTheJoin_isInTheStateALaterJoinerGets() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let call = cid("default:standup")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))

        let alicesJoin = try await alice.send(JoinCallRequest(cid: call, microphoneOn: false, cameraOn: true))
        let bobsJoin = try await bob.send(JoinCallRequest(cid: call, microphoneOn: true, cameraOn: false))

        let participants = bobsJoin.call.session.participants
        let alicesState = participants.first { $0.sessionId == alicesJoin.sessionId }.map { [$0.microphoneOn, $0.cameraOn] }
        let bobsState = participants.first { $0.sessionId == bobsJoin.sessionId }.map { [$0.microphoneOn, $0.cameraOn] }
        XCTAssertEqual(alicesState, [false, true])
        XCTAssertEqual(bobsState, [true, false])
        try await alice.barrier()
        let joined = await alice.receivedEvents(.participantJoined).compactMap(\.joined).first { $0.participant.userId == "bob" }
        XCTAssertEqual(joined.map { [$0.participant.microphoneOn, $0.participant.cameraOn] }, [true, false], "the others hear it with the join")
    }

    /// bob joined without saying (a build before this), says it with a join again (his device
    /// rejoining on the same connection), then turns his microphone off; his camera stays as said.
    func test_microphoneTurnedOff_everyoneHearsIt_andTheStateKeepsIt() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let bobsSession = try await bob.send(JoinCallRequest(cid: call, microphoneOn: true, cameraOn: true)).sessionId

        let response = try await bob.send(UpdateMediaStateRequest(cid: call, microphoneOn: false))

        XCTAssertEqual(response, EmptyResponse())
        try await alice.barrier()
        let seen = await alice.receivedEvents(.mediaStateChanged).compactMap(\.mediaState)
        XCTAssertEqual(seen, [
            MediaStateEvent(cid: call, userId: "bob", sessionId: bobsSession, microphoneOn: true, cameraOn: true),
            MediaStateEvent(cid: call, userId: "bob", sessionId: bobsSession, microphoneOn: false, cameraOn: true),
        ])
        let state = try await alice.send(GetCallRequest(cid: call)).call
        let bobsState = state.session.participants.first { $0.sessionId == bobsSession }.map { [$0.microphoneOn, $0.cameraOn] }
        XCTAssertEqual(bobsState, [false, true])
    }

    func test_sameStateAgain_saysNothingNew() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()

        _ = try await bob.send(UpdateMediaStateRequest(cid: call, microphoneOn: true, cameraOn: true))
        _ = try await bob.send(UpdateMediaStateRequest(cid: call, microphoneOn: true, cameraOn: true))
        _ = try await bob.send(UpdateMediaStateRequest(cid: call, cameraOn: false))
        _ = try await bob.send(UpdateMediaStateRequest(cid: call, microphoneOn: true, cameraOn: false))
        _ = try await bob.send(UpdateMediaStateRequest(cid: call))

        try await alice.barrier()
        let seen = await alice.receivedEvents(.mediaStateChanged).compactMap(\.mediaState).map { [$0.microphoneOn, $0.cameraOn] }
        XCTAssertEqual(seen, [[true, true], [true, false]])
    }

    /// Past the burst a change is refused; saying the state the call already has is not a change.
    func test_toggleFlood_isRateLimited_andTheStateIsTheLastAllowed() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let burst = SessionRateLimits().mediaState.burst

        var refusals: [ErrorCode] = []
        for change in 1...(burst + 6) {
            do {
                _ = try await bob.send(UpdateMediaStateRequest(cid: call, microphoneOn: change % 2 == 1))
            } catch let error as ProtocolError {
                refusals.append(error.code)
            }
        }

        // After the burst every other request repeats the state kept (accepted, no event).
        XCTAssertEqual(refusals, Array(repeating: .rateLimited, count: 3))
        try await alice.barrier()
        let seen = await alice.receivedEvents(.mediaStateChanged).compactMap(\.mediaState).map(\.microphoneOn)
        XCTAssertEqual(seen, (1...burst).map { $0 % 2 == 1 })
        let state = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertEqual(state.session.participants.first { $0.userId == "bob" }?.microphoneOn, seen.last ?? nil)
    }

    func test_fromSomeoneNotInTheCall_isRefused_andReachesNoOne() async throws {
        let (alice, _, call) = try await callWithAliceAndBobIn()
        let carol = try await connect("carol")
        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "carol")]))

        let refused = try await carol.sendExpectingError(UpdateMediaStateRequest(cid: call, microphoneOn: false))

        XCTAssertEqual(refused.code, .notInCall)
        try await alice.barrier()
        let seen = await alice.receivedEvents(.mediaStateChanged)
        XCTAssertEqual(seen, [])
    }
}
