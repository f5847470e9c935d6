@testable import ConfabCore
import Foundation
import XCTest

/// A participant's microphone is shown as their device says it is; what arrives decides only
/// for a device that says nothing. Our own toggles are told to the call.
final class ActiveCallMicrophone_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private nonisolated(unsafe) var viewModel: CallViewModel?

    @MainActor private func inCall(bobsMicrophone: Bool?) -> (CallViewModel, FakeCallService, ActiveCall) {
        let service = FakeCallService()
        var bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date(timeIntervalSince1970: 1000))
        bob.microphoneOn = bobsMicrophone
        service.participantsOnJoin = [CallParticipant(user: User(id: "ada"), sessionID: "s-self", role: "user", joinedAt: Date()), bob]
        service.ownSessionOnJoin = "s-self"
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        var done = false
        Task { await subject.startCall(self.standup, members: [], ring: false); done = true }
        waitUntil { done && subject.callingState == .inCall }
        guard let call = subject.activeCall else { fatalError("joined without a call") }
        viewModel = subject
        return (subject, service, call)
    }

    func test_microphoneSaidOnAtTheJoin_isShownOn_beforeAnyAudioArrives() { onMain {
        let (_, _, call) = inCall(bobsMicrophone: true)
        XCTAssertEqual(call.participants["s-bob"]?.media.hasAudio, false, "no audio has arrived")
        XCTAssertEqual(call.participants["s-bob"]?.hasAudio, true)
    } }

    func test_deviceThatSaysNothing_isJudgedByWhatArrives_andASaidMuteOutvotesArrivingAudio() {
        var bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date(),
                                  media: ParticipantMedia(hasAudio: false))
        XCTAssertFalse(bob.hasAudio)
        bob.media = ParticipantMedia(hasAudio: true, isSpeaking: true)
        XCTAssertTrue(bob.hasAudio)
        XCTAssertTrue(bob.isSpeaking)
        bob.microphoneOn = false
        XCTAssertFalse(bob.hasAudio, "audio still arriving does not outvote the mute")
        XCTAssertFalse(bob.isSpeaking, "a muted participant is not shown speaking")
    }

    func test_microphoneChanged_showsAtOnce_forThatCallOnly() { onMain {
        let (_, service, call) = inCall(bobsMicrophone: true)

        service.send(.microphoneChanged(standup, sessionID: "s-bob", on: false))
        XCTAssertEqual(call.participants["s-bob"]?.hasAudio, false)
        service.send(.microphoneChanged(standup, sessionID: "s-bob", on: true))
        XCTAssertEqual(call.participants["s-bob"]?.hasAudio, true)
        service.send(.microphoneChanged(CallID(type: .default, id: "other"), sessionID: "s-bob", on: false))
        XCTAssertEqual(call.participants["s-bob"]?.hasAudio, true, "another call's event changed this one")
    } }

    func test_ourToggles_areToldToTheCall_inOrder() { onMain {
        let (subject, service, _) = inCall(bobsMicrophone: true)

        subject.toggleMicrophoneEnabled()
        subject.toggleMicrophoneEnabled()
        subject.toggleMicrophoneEnabled()

        waitUntil { service.microphoneTold.count == 3 }
        XCTAssertEqual(service.microphoneTold, [false, true, false])
        XCTAssertEqual(service.joined.last?.1.audioOn, true, "the join said the microphone was on")
    } }
}
