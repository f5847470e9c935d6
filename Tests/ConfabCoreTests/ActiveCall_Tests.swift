@testable import ConfabCore
import Foundation
import XCTest

/// The per-call owner: everything of one call goes with it, nothing leaks into the next.
final class ActiveCall_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private let endpoint = MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t-1")
    private let bob = User(id: "bob", name: "Bob")
    private let cy = User(id: "cy", name: "Cy")

    @MainActor private func run(_ action: @escaping @MainActor () async -> Void) {
        var done = false
        Task { await action(); done = true }
        waitUntil { done }
    }

    @MainActor private func participant(_ user: User, joined seconds: TimeInterval = 0) -> CallParticipant {
        CallParticipant(user: user, sessionID: "s-\(user.id)", role: "user", joinedAt: Date(timeIntervalSince1970: 1000 + seconds))
    }

    @MainActor private func inCallWithMedia() -> (CallViewModel, FakeCallService, FakeMediaEngine) {
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        service.participantsOnJoin = [participant(bob)]
        let engine = FakeMediaEngine()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        run { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false) }
        waitUntil { subject.activeCall?.isMediaConnected == true }
        return (subject, service, engine)
    }

    func test_hangUp_dropsTheCall_andLeavesNoMediaTaskOrObjectBehind() { onMain {
        let (subject, service, engine) = inCallWithMedia()
        weak var call = subject.activeCall
        // Media broke: a recovery loop runs, owned by the call.
        service.renewalsFailing = 100
        engine.fail("Lost the connection to the media server")
        XCTAssertEqual(call?.isRecoveringMedia, true)

        run { await subject.hangUp() }
        waitUntil { engine.stopCount == 1 }
        XCTAssertNil(subject.activeCall)
        XCTAssertEqual(call?.isRecoveringMedia ?? false, false, "the recovery loop ends with the call")
        // Nothing (no task, no engine callback) keeps the ended call alive.
        waitUntil { call == nil }
        let renewals = service.requests.filter { $0.hasPrefix("renew media") }.count
        settle(seconds: 1.2)
        XCTAssertEqual(service.requests.filter { $0.hasPrefix("renew media") }.count, renewals, "no renewal after leaving")
    } }

    func test_lateMediaUpdateFromAnEndedCall_doesNotReachTheNextCall() { onMain {
        let (subject, service, engine) = inCallWithMedia()
        run { await subject.hangUp() }
        // The next call has no media yet: the engine still holds the ended call's callback.
        service.mediaOnJoin = nil
        run { await subject.startCall(CallID(type: .default, id: "retro"), members: [], ring: false) }
        engine.update(["s-bob": ParticipantMedia(hasVideo: true)])
        XCTAssertEqual(subject.activeCall?.id, CallID(type: .default, id: "retro"))
        XCTAssertNotEqual(subject.activeCall?.participants["s-bob"]?.hasVideo, true)
    } }

    func test_nextCall_startsClean_noPinsRecordingOrCapabilitiesFromTheLastOne() { onMain {
        let (subject, service, _) = inCallWithMedia()
        var snapshot = CallSnapshot(id: standup, createdBy: "ada", participants: [participant(bob)], blockedUserIDs: ["mallory"],
                                    ownCapabilities: [.startRecording])
        snapshot.isRecording = true
        snapshot.recordingState = .recording
        snapshot.backstage = true
        service.send(.callUpdated(snapshot))
        subject.activeCall?.toggleLocalPin(sessionID: "s-bob")
        XCTAssertEqual(subject.activeCall?.isBackstage, true)

        run { await subject.hangUp() }
        service.participantsOnJoin = []
        run { await subject.startCall(CallID(type: .default, id: "retro"), members: [], ring: false) }
        let next = subject.activeCall
        XCTAssertEqual(next?.isRecording, false)
        XCTAssertEqual(next?.recordingState, .noRecording)
        XCTAssertEqual(next?.isBackstage, false)
        XCTAssertEqual(next?.blockedUsers, [])
        XCTAssertEqual(next?.ownCapabilities, service.capabilitiesOnJoin, "only what the new call's join gave")
        XCTAssertEqual(next?.locallyPinned, [])
    } }

    func test_duration_belongsToTheCall_andCountsFromJoining() { onMain {
        let (subject, _, _) = inCallWithMedia()
        let call = subject.activeCall
        let joinedAt = call?.joinedAt
        XCTAssertNotNil(joinedAt)
        subject.isMinimized = true
        subject.isMinimized = false
        XCTAssertEqual(subject.activeCall?.joinedAt, joinedAt, "switching windows does not restart the duration")
        XCTAssertEqual(call?.duration(at: joinedAt!.addingTimeInterval(75)), 75)
    } }

    func test_spotlight_isNeverOurselves_evenWhenWeSpeak() { onMain {
        let (subject, service, engine) = inCallWithMedia()
        service.send(.participantJoined(standup, CallParticipant(user: User(id: "ada"), sessionID: "s-self", role: "user",
                                                                 joinedAt: Date(timeIntervalSince1970: 0))))
        engine.update(["s-self": ParticipantMedia(hasAudio: true, isSpeaking: true)])
        XCTAssertEqual(subject.activeCall?.spotlightParticipant?.user.id, "bob")
    } }

    // MARK: Ring calls end when everyone else hangs up

    @MainActor private func answeredRing(from caller: User, others: [User] = []) -> (CallViewModel, FakeCallService) {
        let service = FakeCallService()
        service.participantsOnJoin = ([caller] + others).enumerated().map { participant($1, joined: Double($0)) }
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        service.send(.ringing(IncomingCall(id: "standup", caller: caller, type: .default, members: [], timeout: .seconds(30), video: true)))
        run { await subject.acceptCall(CallID(type: .default, id: "standup")) }
        XCTAssertEqual(subject.callingState, .inCall)
        return (subject, service)
    }

    func test_oneToOneRing_otherHangsUp_endsTheCallHere() { onMain {
        let (subject, service) = answeredRing(from: bob)
        service.send(.participantLeft(standup, participant(bob)))
        XCTAssertEqual(subject.callingState, .idle)
        XCTAssertNil(subject.activeCall)
        XCTAssertEqual(subject.endedCall?.reason, "Bob hung up")
        waitUntil { service.requests.contains("leave default:standup") }
    } }

    /// A one-to-one call bob rang us into, whose connection the coordinator then lost; the call
    /// waits 0.4 s for him.
    @MainActor private func bobsConnectionDropped() -> (CallViewModel, FakeCallService) {
        let (subject, service) = answeredRing(from: bob)
        subject.activeCall?.returnWaitLimit = .milliseconds(400)
        service.send(.participantLeft(standup, participant(bob), departure: .connectionLost))
        return (subject, service)
    }

    func test_oneToOneRing_othersConnectionDrops_callWaitsForThem_andIsOverIfTheyDoNotComeBack() { onMain {
        let (subject, service) = bobsConnectionDropped()
        XCTAssertEqual(subject.callingState, .inCall, "a dropped connection is no hang-up")
        XCTAssertEqual(subject.activeCall?.awaitedReturn, "Bob")
        XCTAssertEqual(subject.toast?.message, "Bob’s connection dropped")
        XCTAssertFalse(service.requests.contains("leave default:standup"))

        waitUntil { subject.callingState == .idle }
        XCTAssertEqual(subject.endedCall?.reason, "Bob’s connection was lost")
        waitUntil { service.requests.contains("leave default:standup") }
    } }

    func test_oneToOneRing_othersConnectionDrops_andTheyComeBack_callGoesOn() { onMain {
        let (subject, service) = bobsConnectionDropped()
        var back = participant(bob, joined: 5)
        back.sessionID = "s-bob-again"
        service.send(.participantJoined(standup, back))
        XCTAssertEqual(subject.toast?.message, "Bob is back")
        XCTAssertNil(subject.activeCall?.awaitedReturn)
        settle(seconds: 0.8)
        XCTAssertEqual(subject.callingState, .inCall, "the wait went on after Bob came back")
        XCTAssertFalse(service.requests.contains("leave default:standup"))
        // Hanging up afterwards is told as it was.
        service.send(.participantLeft(standup, back))
        XCTAssertEqual(subject.endedCall?.reason, "Bob hung up")
    } }

    func test_oneToOneRing_backFromOurLostConnection_bobGoneMeanwhile_waitsForHim_thenIsOver() { onMain {
        let (subject, service) = answeredRing(from: bob)
        subject.activeCall?.returnWaitLimit = .milliseconds(400)
        service.participantsOnJoin = []
        service.send(.connectionLost)
        XCTAssertEqual(subject.callingState, .reconnecting)
        service.send(.connectionRestored)
        waitUntil { subject.activeCall?.awaitedReturn == "Bob" }
        XCTAssertEqual(subject.callingState, .inCall, "a coordinator that restarted lost everyone: bob may be on his way back")
        waitUntil { subject.callingState == .idle }
        XCTAssertEqual(subject.endedCall?.reason, "Bob is no longer in the call")
    } }

    func test_oneToOneRing_backFromOurLostConnection_bobStillThere_nothingToWaitFor() { onMain {
        let (subject, service) = answeredRing(from: bob)
        subject.activeCall?.returnWaitLimit = .milliseconds(300)
        service.send(.connectionLost)
        service.send(.connectionRestored)
        waitUntil { service.requests.filter { $0.hasPrefix("join") }.count == 2 }
        settle(seconds: 0.6)
        XCTAssertNil(subject.activeCall?.awaitedReturn)
        XCTAssertEqual(subject.callingState, .inCall)
    } }

    func test_groupRing_oneLosesTheConnection_theToastSaysSo_notThatTheyLeft() { onMain {
        let (subject, service) = answeredRing(from: bob, others: [cy])
        service.send(.participantLeft(standup, participant(bob), departure: .connectionLost))
        XCTAssertEqual(subject.callingState, .inCall)
        XCTAssertEqual(subject.toast?.message, "Bob’s connection dropped")
        XCTAssertNil(subject.activeCall?.awaitedReturn, "the others are still there")
    } }

    func test_groupRing_oneOfTwoLeaves_callGoesOn() { onMain {
        let (subject, service) = answeredRing(from: bob, others: [cy])
        service.send(.participantLeft(standup, participant(bob)))
        XCTAssertEqual(subject.callingState, .inCall)
        XCTAssertEqual(subject.toast?.message, "Bob left")
    } }

    func test_joinedFromLobby_lastOtherLeaves_staysWaiting() { onMain {
        let service = FakeCallService()
        service.participantsOnJoin = [participant(bob)]
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        subject.enterLobby(CallID(type: .default, id: "standup"), members: [])
        run { await subject.joinCall(CallID(type: .default, id: "standup")) }
        service.send(.participantLeft(standup, participant(bob)))
        XCTAssertEqual(subject.callingState, .inCall, "a meeting room stays open for whoever comes next")
    } }

    // MARK: Messages stay with their call

    func test_toastFromOneCall_isNotShownInTheNextLobby() { onMain {
        let (subject, service) = answeredRing(from: bob, others: [cy])
        service.send(.participantLeft(standup, participant(cy)))
        XCTAssertEqual(subject.toast?.message, "Cy left")
        XCTAssertEqual(subject.toast?.call, standup)
        run { await subject.hangUp() }
        subject.enterLobby(CallID(type: .default, id: "retro"), members: [])
        let retro = CallID(type: .default, id: "retro")
        XCTAssertFalse(subject.toast.map { $0.belongs(to: retro) && $0.message.contains("Cy") } ?? false,
                       "the lobby of another call does not show “Cy left”")
    } }

    func test_toastBelongs_onlyToItsCallOrToNoCall() {
        let retro = CallID(type: .default, id: "retro")
        XCTAssertTrue(Toast(id: 1, message: "hi").belongs(to: retro))
        XCTAssertTrue(Toast(id: 1, message: "Cy left", call: standup).belongs(to: standup))
        XCTAssertFalse(Toast(id: 1, message: "Cy left", call: standup).belongs(to: retro))
        XCTAssertFalse(Toast(id: 1, message: "Cy left", call: standup).belongs(to: nil))
    }
}

/// Several views watch one stream; each watch ends with its token.
final class Listeners_Tests: XCTestCase {
    func test_twoWatchers_bothGetValues_andDroppingOneKeepsTheOther() { onMain {
        let stream = Listeners<Int>()
        var first: [Int] = [], second: [Int] = []
        var a: Subscription? = stream.subscribe { first.append($0) }
        let b = stream.subscribe { second.append($0) }
        stream.send(1)
        a = nil
        stream.send(2)
        XCTAssertNil(a)
        XCTAssertEqual(first, [1])
        XCTAssertEqual(second, [1, 2], "the other watcher is not disturbed")
        XCTAssertEqual(stream.count, 1)
        b.cancel()
        XCTAssertEqual(stream.count, 0)
    } }

    func test_subscriptionReleased_releasesItsHandler() { onMain {
        final class Owner {}
        let stream = Listeners<Int>()
        var owner: Owner? = Owner()
        weak var watched = owner
        var token: Subscription? = stream.subscribe { [owner] _ in _ = owner }
        owner = nil
        XCTAssertNotNil(watched, "the handler holds what it captured while subscribed")
        token = nil
        XCTAssertNil(token)
        XCTAssertNil(watched, "dropping the subscription frees the handler and what it held")
    } }
}

/// The desktop's privacy switches are obeyed, not only shown.
final class DeviceAccess_Tests: XCTestCase {
    @MainActor private func inCall(settings: CallSettings = .default) -> (CallViewModel, FakeMediaEngine) {
        let service = FakeCallService()
        service.mediaOnJoin = MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t-1")
        let engine = FakeMediaEngine()
        let subject = CallViewModel(currentUser: User(id: "ada"), callSettings: settings, callService: service, mediaEngine: engine)
        var done = false
        Task { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false); done = true }
        waitUntil { done && subject.activeCall?.isMediaConnected == true }
        return (subject, engine)
    }

    func test_cameraRefusedMidCall_stopsSending_andResumesWhenAllowedAgain() { onMain {
        let (subject, engine) = inCall()
        subject.localMedia.updateDeviceAccess(DeviceAccess(camera: false, microphone: true))
        XCTAssertEqual(engine.videoEnabled.last, false, "the camera still sends after the privacy switch refused it")
        XCTAssertEqual(subject.callSettings.videoOn, true, "the user's own toggle is kept")
        subject.localMedia.updateDeviceAccess(DeviceAccess(camera: true, microphone: true))
        XCTAssertEqual(engine.videoEnabled.last, true)
    } }

    func test_microphoneRefused_thenToggledOff_staysOffWhenAllowedAgain() { onMain {
        let (subject, engine) = inCall()
        subject.localMedia.updateDeviceAccess(DeviceAccess(camera: true, microphone: false))
        XCTAssertEqual(engine.audioEnabled.last, false)
        subject.toggleMicrophoneEnabled()
        subject.localMedia.updateDeviceAccess(DeviceAccess(camera: true, microphone: true))
        XCTAssertEqual(engine.audioEnabled.last, false, "access returning does not turn on what the user turned off")
    } }

    func test_joiningWhileCameraRefused_neverStartsTheCamera() { onMain {
        let service = FakeCallService()
        service.mediaOnJoin = MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t-1")
        let engine = FakeMediaEngine()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        subject.localMedia.updateDeviceAccess(DeviceAccess(camera: false, microphone: true))
        var done = false
        Task { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false); done = true }
        waitUntil { done && subject.activeCall?.isMediaConnected == true }
        XCTAssertEqual(engine.started.first?.3.videoOn, false)
        XCTAssertEqual(engine.videoEnabled.last, false)
    } }

    func test_onlyExplicitRefusalsCloseADevice() {
        XCTAssertFalse(DeviceAccess.allows(.denied(.privacySetting)))
        XCTAssertFalse(DeviceAccess.allows(.denied(.portal)))
        XCTAssertTrue(DeviceAccess.allows(.denied(.likelySystemMute)), "a silent microphone is only probably muted")
        XCTAssertTrue(DeviceAccess.allows(.granted))
        XCTAssertTrue(DeviceAccess.allows(.unknown))
    }
}
