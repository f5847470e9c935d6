@testable import ConfabCore
import XCTest

final class CallViewModel_Tests: XCTestCase {
    private let ada = User(id: "ada", name: "Ada Lovelace")

    func test_idle_enterLobby_showsLobbyForThatCall() { onMain {
        let subject = CallViewModel(currentUser: ada)
        subject.enterLobby(CallID(type: .default, id: "standup"), members: [Member(user: User(id: "bob"))])
        guard case .lobby(let info) = subject.callingState else { return XCTFail("not in lobby: \(subject.callingState)") }
        XCTAssertEqual(info.call.description, "default:standup")
        XCTAssertEqual(info.participants.map(\.user.id), ["bob"])
    } }

    func test_lobby_closeLobby_returnsToIdle() { onMain {
        let subject = CallViewModel(currentUser: ada)
        subject.enterLobby(CallID(type: .default, id: "standup"), members: [])
        subject.closeLobby()
        XCTAssertEqual(subject.callingState, .idle)
    } }

    func test_inCall_closeLobby_changesNothing() { onMain {
        let subject = CallViewModel(currentUser: ada)
        subject.callingState = .inCall
        subject.closeLobby()
        XCTAssertEqual(subject.callingState, .inCall)
    } }

    func test_lobby_toggleMicrophone_flipsAudioOnly() { onMain {
        let subject = CallViewModel(currentUser: ada)
        subject.toggleMicrophoneEnabled()
        XCTAssertEqual(subject.callSettings, CallSettings(audioOn: false, videoOn: true, speakerOn: true))
        subject.toggleMicrophoneEnabled()
        XCTAssertEqual(subject.callSettings, .default)
    } }

    func test_lobby_toggleCamera_flipsVideoOnly() { onMain {
        let subject = CallViewModel(currentUser: ada)
        subject.toggleCameraEnabled()
        XCTAssertEqual(subject.callSettings, CallSettings(audioOn: true, videoOn: false, speakerOn: true))
    } }

    func test_lobby_toggleSpeaker_flipsSpeakerOnly() { onMain {
        let subject = CallViewModel(currentUser: ada, callSettings: CallSettings(audioOn: false, videoOn: false))
        subject.toggleSpeaker()
        XCTAssertEqual(subject.callSettings, CallSettings(audioOn: false, videoOn: false, speakerOn: false))
    } }

    func test_lobby_joinWithoutServer_staysInLobbyAndSaysWhy() { onMain {
        let subject = CallViewModel(currentUser: ada)
        subject.enterLobby(CallID(type: .default, id: "standup"), members: [])
        var finished = false
        Task { await subject.joinCall(CallID(type: .default, id: "standup")); finished = true }
        waitUntil { finished }
        XCTAssertEqual(subject.callingState.name, "lobby")
        XCTAssertEqual(subject.toast?.message, CallError.notConnected.message)
    } }

    func test_lobby_joinSucceeds_inCallWithLobbySettings() { onMain {
        let service = FakeCallService()
        let subject = CallViewModel(currentUser: ada, callService: service)
        subject.enterLobby(CallID(type: .default, id: "standup"), members: [])
        subject.toggleCameraEnabled()
        var finished = false
        Task { await subject.joinCall(CallID(type: .default, id: "standup")); finished = true }
        waitUntil { finished }
        XCTAssertEqual(subject.callingState, .inCall)
        XCTAssertEqual(service.joined.first?.0, CallID(type: .default, id: "standup"))
        XCTAssertEqual(service.joined.first?.1.videoOn, false)
    } }

    func test_lobby_joinRefused_backInLobbyWithReason() { onMain {
        let service = FakeCallService()
        service.failure = CallError("You are blocked from this call")
        let subject = CallViewModel(currentUser: ada, callService: service)
        subject.enterLobby(CallID(type: .default, id: "standup"), members: [])
        var finished = false
        Task { await subject.joinCall(CallID(type: .default, id: "standup")); finished = true }
        waitUntil { finished }
        XCTAssertEqual(subject.callingState.name, "lobby")
        XCTAssertEqual(subject.toast?.message, "Couldn’t join the call: You are blocked from this call")
    } }
}

final class CallingModels_Tests: XCTestCase {
    func test_callIDWithType_parses() {
        XCTAssertEqual(try? CallID.parse(userInput: "audio_room:town-hall"), CallID(type: .audioRoom, id: "town-hall"))
    }

    func test_callIDWithoutType_usesDefaultType() {
        XCTAssertEqual((try? CallID.parse(userInput: " standup "))?.description, "default:standup")
    }

    func test_malformedCallIDs_areRejected() {
        for text in ["", ":", "default:", ":id", "a:b:c", "default:stand up", "déjà:vu"] {
            XCTAssertNil(try? CallID.parse(userInput: text), text)
        }
    }

    /// What the home page, links and --call accept is exactly what the server accepts: a lobby
    /// never opens for a call that would fail only at Join.
    func test_userInput_followsTheServersRules() {
        XCTAssertThrowsError(try CallID.parse(userInput: "meeting:standup"), "an unknown call type is refused up front")
        XCTAssertThrowsError(try CallID.parse(userInput: String(repeating: "a", count: 65)), "too long for the server")
        XCTAssertEqual(try? CallID.parse(userInput: "default:v1.2-review"), CallID(type: .default, id: "v1.2-review"))
    }

    func test_userInitials_fromNameWords() {
        XCTAssertEqual(User(id: "ada", name: "Ada Lovelace").initials, "AL")
        XCTAssertEqual(User(id: "bob").initials, "B")
        XCTAssertEqual(User(id: "x", name: "  ").name, "x")
        XCTAssertEqual(User(id: "grace", name: "grace brewster hopper").initials, "GB")
    }

    func test_callSettings_updatesKeepOtherFields() {
        let settings = CallSettings(audioOn: false, videoOn: true, speakerOn: false)
        XCTAssertEqual(settings.withUpdatedVideoState(false), CallSettings(audioOn: false, videoOn: false, speakerOn: false))
        XCTAssertFalse(CallSettings(audioOn: false, videoOn: false).shouldPublish)
        XCTAssertTrue(settings.shouldPublish)
    }
}
