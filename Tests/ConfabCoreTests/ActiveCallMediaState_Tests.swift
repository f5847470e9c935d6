@testable import ConfabCore
import Foundation
import XCTest

/// A participant's microphone and camera are shown as their device says they are; what arrives
/// decides only for a device that says nothing. Our own toggles are told to the call.
final class ActiveCallMediaState_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private nonisolated(unsafe) var viewModel: CallViewModel?

    @MainActor private func inCall(bobsMicrophone: Bool?, bobsCamera: Bool? = nil) -> (CallViewModel, FakeCallService, ActiveCall) {
        let service = FakeCallService()
        var bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date(timeIntervalSince1970: 1000))
        bob.microphoneOn = bobsMicrophone
        bob.cameraOn = bobsCamera
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

    func test_deviceThatSaysNothing_isJudgedByWhatArrives_andASaidOffOutvotesWhatStillArrives() {
        var bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date(),
                                  media: ParticipantMedia(hasVideo: false, hasAudio: false))
        XCTAssertFalse(bob.hasAudio)
        XCTAssertFalse(bob.hasVideo)
        bob.media = ParticipantMedia(hasVideo: true, hasAudio: true, isSpeaking: true)
        XCTAssertTrue(bob.hasAudio)
        XCTAssertTrue(bob.hasVideo)
        XCTAssertTrue(bob.isSpeaking)
        bob.microphoneOn = false
        bob.cameraOn = false
        XCTAssertFalse(bob.hasAudio, "audio still arriving does not outvote the mute")
        XCTAssertFalse(bob.isSpeaking, "a muted participant is not shown speaking")
        XCTAssertFalse(bob.hasVideo, "the last picture does not stand for a camera turned off")
        // A camera said on still needs its picture to arrive before it is shown.
        bob.cameraOn = true
        bob.media.hasVideo = false
        XCTAssertFalse(bob.hasVideo)
    }

    func test_cameraOnButItsPictureStopped_isAnInterruption_notACameraTurnedOff() {
        var bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date(),
                                  media: ParticipantMedia(hasVideo: true, hasAudio: true, connectionQuality: .excellent))
        bob.cameraOn = true
        XCTAssertFalse(bob.isVideoInterrupted())
        // The network goes: nothing more arrives, and the last measure of it said excellent.
        bob.media.hasVideo = false
        XCTAssertTrue(bob.isVideoInterrupted())
        XCTAssertFalse(bob.hasVideo)
        XCTAssertEqual(bob.connectionQuality, .poor, "a picture that stopped arriving is a poor connection, whatever was last measured")
        // Turned off, it is no interruption.
        bob.cameraOn = false
        XCTAssertFalse(bob.isVideoInterrupted())
        XCTAssertEqual(bob.connectionQuality, .excellent)
        // Said on again a moment ago: its first picture is on its way.
        bob.cameraOn = true
        bob.cameraOnSince = Date()
        XCTAssertFalse(bob.isVideoInterrupted())
        XCTAssertTrue(bob.isVideoInterrupted(at: Date().addingTimeInterval(CallParticipant.videoStartAllowance + 0.1)))
        // Never a picture on this connection (joining, or a camera that gives none): not interrupted.
        bob.media = ParticipantMedia(hasVideo: false, hadVideo: false)
        bob.cameraOnSince = nil
        XCTAssertFalse(bob.isVideoInterrupted())
        // A device that says nothing of its camera is judged by what arrives, as before.
        bob.cameraOn = nil
        bob.media = ParticipantMedia(hasVideo: false, hadVideo: true)
        XCTAssertFalse(bob.isVideoInterrupted())
    }

    /// In a call with media (a fake engine) and bob, whose device said what `bob` sets.
    @MainActor private func inCallWithMedia(bob configure: (inout CallParticipant) -> Void)
        -> (FakeCallService, FakeMediaEngine, ActiveCall?) {
        let service = FakeCallService()
        service.mediaOnJoin = MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t-1")
        var bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date(timeIntervalSince1970: 1000))
        configure(&bob)
        service.participantsOnJoin = [bob]
        let engine = FakeMediaEngine()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        viewModel = subject
        var done = false
        Task { await subject.startCall(self.standup, members: [], ring: false); done = true }
        waitUntil { done && subject.activeCall?.isMediaConnected == true }
        return (service, engine, subject.activeCall)
    }

    func test_pictureStoppedThenAReconnect_isStillAnInterruption_untilTheCameraIsSaidOff() { onMain {
        let (service, engine, activeCall) = inCallWithMedia { $0.cameraOn = true }
        guard let call = activeCall else { return XCTFail("no call") }

        engine.update(["s-bob": ParticipantMedia(hasVideo: true)])
        XCTAssertEqual(call.participants["s-bob"]?.hasVideo, true)
        // The network goes, and the media is connected anew: the new connection has had no picture.
        engine.update(["s-bob": ParticipantMedia(hasVideo: false, hadVideo: false)])
        XCTAssertEqual(call.participants["s-bob"]?.isVideoInterrupted(), true, "a reconnect made the interruption look like a camera turned off")
        // Turned off, it is not: and turned on again, its picture is awaited anew.
        service.send(.mediaStateChanged(standup, sessionID: "s-bob", microphoneOn: true, cameraOn: false))
        engine.update(["s-bob": ParticipantMedia(hasVideo: false, hadVideo: false)])
        XCTAssertEqual(call.participants["s-bob"]?.isVideoInterrupted(), false)
        service.send(.mediaStateChanged(standup, sessionID: "s-bob", microphoneOn: true, cameraOn: true))
        engine.update(["s-bob": ParticipantMedia(hasVideo: false, hadVideo: false)])
        XCTAssertEqual(call.participants["s-bob"]?.isVideoInterrupted(at: Date().addingTimeInterval(10)), false,
                       "no picture yet since the camera came on: nothing was interrupted")
    } }

    func test_cameraSaidOn_isNotedWhen_andForgottenWhenOff() { onMain {
        let (_, service, call) = inCall(bobsMicrophone: true, bobsCamera: false)
        XCTAssertNil(call.participants["s-bob"]?.cameraOnSince)
        let before = Date()
        service.send(.mediaStateChanged(standup, sessionID: "s-bob", microphoneOn: true, cameraOn: true))
        XCTAssertGreaterThanOrEqual(call.participants["s-bob"]?.cameraOnSince ?? .distantPast, before)
        service.send(.mediaStateChanged(standup, sessionID: "s-bob", microphoneOn: true, cameraOn: false))
        XCTAssertNil(call.participants["s-bob"]?.cameraOnSince)
    } }

    func test_whoSends_isToldToTheMediaEngine_whenItChanges() { onMain {
        let (service, engine, call) = inCallWithMedia {
            $0.microphoneOn = false
            $0.cameraOn = false
        }
        XCTAssertNotNil(call, "no call")
        XCTAssertEqual(engine.toldSenders.last ?? RemoteSenders(), RemoteSenders(), "bob, muted with his camera off, was said to send")
        service.send(.mediaStateChanged(standup, sessionID: "s-bob", microphoneOn: true, cameraOn: false))
        XCTAssertEqual(engine.toldSenders.last, RemoteSenders(microphoneOn: ["s-bob"]))
        let told = engine.toldSenders.count
        // Media readings change the participants every second: nothing new is told for them.
        engine.update(["s-bob": ParticipantMedia(hasAudio: true)])
        XCTAssertEqual(engine.toldSenders.count, told, "the same senders were told again")
        service.send(.mediaStateChanged(standup, sessionID: "s-bob", microphoneOn: false, cameraOn: true))
        XCTAssertEqual(engine.toldSenders.last, RemoteSenders(), "bob's camera counted as sound")
    } }

    func test_mediaStateChanged_showsAtOnce_forThatCallOnly() { onMain {
        let (_, service, call) = inCall(bobsMicrophone: true, bobsCamera: true)

        service.send(.mediaStateChanged(standup, sessionID: "s-bob", microphoneOn: false, cameraOn: true))
        XCTAssertEqual(call.participants["s-bob"]?.hasAudio, false)
        service.send(.mediaStateChanged(standup, sessionID: "s-bob", microphoneOn: true, cameraOn: false))
        XCTAssertEqual(call.participants["s-bob"]?.hasAudio, true)
        XCTAssertEqual(call.participants["s-bob"]?.cameraOn, false)
        service.send(.mediaStateChanged(CallID(type: .default, id: "other"), sessionID: "s-bob", microphoneOn: false, cameraOn: false))
        XCTAssertEqual(call.participants["s-bob"]?.hasAudio, true, "another call's event changed this one")
    } }

    func test_ourToggles_areToldToTheCall_inOrder() { onMain {
        let (subject, service, _) = inCall(bobsMicrophone: true)

        subject.toggleMicrophoneEnabled()
        subject.toggleCameraEnabled()
        subject.toggleMicrophoneEnabled()

        waitUntil { service.mediaStatesTold.count == 3 }
        XCTAssertEqual(service.mediaStatesTold.map { [$0.microphoneOn, $0.cameraOn] }, [[false, true], [false, false], [true, false]])
        XCTAssertEqual(service.joined.last.map { [$0.1.audioOn, $0.1.videoOn] }, [true, true], "the join said both were on")
    } }
}
