@testable import ConfabCore
import Foundation
import XCTest

/// The call view model drives the media engine: start on join, toggles, participants' media, stop.
final class CallViewModelMedia_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private let endpoint = MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t-1")
    private let bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date())

    @MainActor private func joined(media: MediaEndpointInfo?) -> (CallViewModel, FakeCallService, FakeMediaEngine) {
        let service = FakeCallService()
        service.mediaOnJoin = media
        let engine = FakeMediaEngine()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        var done = false
        Task { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false); done = true }
        waitUntil { done }
        return (subject, service, engine)
    }

    func test_joinWithMediaEndpoint_startsMediaWithEndpointSessionAndSettings() { onMain {
        let (subject, _, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        XCTAssertEqual(engine.started.first?.0, standup)
        XCTAssertEqual(engine.started.first?.1, endpoint)
        XCTAssertEqual(engine.started.first?.2, "s-self")
        XCTAssertEqual(engine.started.first?.3, .default)
    } }

    /// An audio room's listener sends neither microphone nor camera, a host there only the
    /// microphone (the coordinator's capabilities); the user's own choices stay for the next
    /// call, and a host who lets the listener speak turns the microphone on.
    func test_whatTheCallDoesNotLetUsSend_isNotSent_andTheChoiceIsKept() { onMain {
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        service.capabilitiesOnJoin = [.sendChat, .raiseHand]
        let engine = FakeMediaEngine()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        let room = CallID(type: .audioRoom, id: "townhall")
        var done = false
        Task { await subject.startCall(room, members: [], ring: false); done = true }
        waitUntil { done && subject.activeCall?.isMediaConnected == true }
        XCTAssertEqual(engine.started.first.map { [$0.3.audioOn, $0.3.videoOn] }, [false, false], "a listener's media started sending")
        waitUntil { service.mediaStatesTold.last.map { !$0.microphoneOn && !$0.cameraOn } == true }
        XCTAssertEqual(subject.callSettings.audioOn, true, "the user's choice was changed")
        XCTAssertEqual(subject.callSettings.videoOn, true)

        // A host lets her speak: her microphone goes on, her camera stays off.
        service.send(.callUpdated(CallSnapshot(id: room, createdBy: "bob", ownCapabilities: [.sendChat, .raiseHand, .sendAudio])))
        XCTAssertEqual(engine.audioEnabled.last, true)
        XCTAssertNotEqual(engine.videoEnabled.last, true)
        waitUntil { service.mediaStatesTold.last.map { $0.microphoneOn && !$0.cameraOn } == true }
    } }

    /// In an audio room a host may let a listener speak and make them a listener again (not
    /// another host); the listener is told either way. Hosts had no way to answer a raised hand.
    func test_aHostLetsAListenerSpeak_andTheListenerIsTold() { onMain {
        let bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date(timeIntervalSince1970: 1000))
        let cleo = CallParticipant(user: User(id: "cleo"), sessionID: "s-cleo", role: "host", joinedAt: Date(timeIntervalSince1970: 1000))
        let room = CallID(type: .audioRoom, id: "stage")
        let members = [Member(user: User(id: "ada"), role: "host"), Member(user: User(id: "bob")), Member(user: User(id: "cleo"), role: "host")]
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        service.capabilitiesOnJoin = [.sendChat, .raiseHand, .sendAudio, .updateCallMember]
        let host = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: FakeMediaEngine())
        Task { await host.startCall(room, members: [], ring: false) }
        waitUntil { host.activeCall?.isMediaConnected == true }
        let call = try! XCTUnwrap(host.activeCall)
        service.send(.callUpdated(CallSnapshot(id: room, createdBy: "ada", members: members, ownCapabilities: service.capabilitiesOnJoin)))
        XCTAssertEqual(call.speakingRight(of: bob), true)
        XCTAssertNil(call.speakingRight(of: cleo), "a host offered to be let speak")
        var done = false
        Task { await call.letSpeak(bob, true); done = true }
        waitUntil { done }
        XCTAssertEqual(service.requests.last, "role bob speaker")
        service.send(.callUpdated(CallSnapshot(id: room, createdBy: "ada", members: [members[0], Member(user: User(id: "bob"), role: "speaker"), members[2]],
                                               ownCapabilities: service.capabilitiesOnJoin)))
        XCTAssertEqual(call.speakingRight(of: bob), false, "bob, let speak, cannot be made a listener again")

        // bob's side: told when let speak, and when made a listener again.
        let listenerService = FakeCallService()
        listenerService.mediaOnJoin = endpoint
        listenerService.capabilitiesOnJoin = [.sendChat, .raiseHand]
        let listener = CallViewModel(currentUser: User(id: "bob"), callService: listenerService, mediaEngine: FakeMediaEngine())
        Task { await listener.startCall(room, members: [], ring: false) }
        waitUntil { listener.activeCall?.isMediaConnected == true }
        XCTAssertNil(listener.toast, "joining as a listener was announced")
        listenerService.send(.callUpdated(CallSnapshot(id: room, createdBy: "ada", ownCapabilities: [.sendChat, .raiseHand, .sendAudio])))
        XCTAssertEqual(listener.toast?.message, "A host let you speak. Your microphone is on.")
        listenerService.send(.callUpdated(CallSnapshot(id: room, createdBy: "ada", ownCapabilities: [.sendChat, .raiseHand])))
        XCTAssertEqual(listener.toast?.message, "You are a listener again.")
    } }

    /// A listener talking is not heard, whatever her toggle says; the call window tells her
    /// why rather than "Unmute to speak", which the room would refuse. It said nothing with
    /// her toggle on (the hint followed the toggle, not what is sent), and with it off told her
    /// to unmute.
    func test_aListenerTalking_isToldSheMayNotSpeak_notToUnmute() { onMain {
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        service.capabilitiesOnJoin = [.sendChat, .raiseHand]
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: FakeMediaEngine())
        let room = CallID(type: .audioRoom, id: "townhall")
        Task { await subject.startCall(room, members: [], ring: false) }
        waitUntil { subject.activeCall?.isMediaConnected == true }
        XCTAssertTrue(subject.callSettings.audioOn)
        for _ in 0..<3 { subject.localMedia.recordLocalAudioLevel(-15) }
        let refusal = subject.localMedia.microphoneRefusal
        XCTAssertNotNil(refusal)
        XCTAssertEqual(subject.localMedia.speakingWhileMutedHint, refusal, "her toggle on: nothing said, or not why")

        subject.localMedia.toggleMicrophone()  // refused: the toggle stays on
        service.send(.callUpdated(CallSnapshot(id: room, createdBy: "bob", ownCapabilities: [.sendChat, .raiseHand, .sendAudio])))
        subject.localMedia.recordLocalAudioLevel(-15)
        XCTAssertNil(subject.localMedia.speakingWhileMutedHint, "allowed to speak with her microphone on, still told she is not heard")
        subject.localMedia.toggleMicrophone()
        for _ in 0..<3 { subject.localMedia.recordLocalAudioLevel(-15) }
        XCTAssertEqual(subject.localMedia.speakingWhileMutedHint?.hasPrefix("You are muted"), true, "muted by her own choice: told how to unmute")
    } }

    /// The call page waits for it when joined from the lobby (AppRouter): said once our side
    /// of the signalling is done, before the connection is up; or when the first try failed,
    /// so a page never waits on a media server that is down.
    func test_mediaSignalled_whenTheEngineSaysSo_beforeTheConnectionIsUp_orWhenTheFirstTryFailed() { onMain {
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        let engine = FakeMediaEngine()
        engine.signalsAtStart = false
        engine.holdsStart = true
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        Task { await subject.startCall(standup, members: [], ring: false) }
        waitUntil { engine.started.count == 1 }
        XCTAssertEqual(subject.activeCall?.isMediaSignalled, false, "signalled before the engine said so")
        engine.signal()
        waitUntil { subject.activeCall?.isMediaSignalled == true }
        XCTAssertEqual(subject.activeCall?.isMediaConnected, false)
        engine.finishStart()
        waitUntil { subject.activeCall?.isMediaConnected == true }

        let failing = FakeMediaEngine()
        failing.signalsAtStart = false
        failing.failure = JanusDown()
        let otherService = FakeCallService()
        otherService.mediaOnJoin = endpoint
        let other = CallViewModel(currentUser: User(id: "ada"), callService: otherService, mediaEngine: failing)
        Task { await other.startCall(standup, members: [], ring: false) }
        waitUntil { other.activeCall?.isMediaSignalled == true }
        XCTAssertEqual(other.activeCall?.isMediaConnected, false)
    } }

    private struct JanusDown: Error {}

    /// Our publishing can be done (the engine's `start` returns) before our answer to someone
    /// already in is made: the call page still waits for that answer, whose picture it shows
    /// (CI: the page came 33 ms before it).
    func test_mediaSignalled_notWhenStartReturns_butWhenTheEngineSaysSo() { onMain {
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        let engine = FakeMediaEngine()
        engine.signalsAtStart = false
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        Task { await subject.startCall(standup, members: [], ring: false) }
        waitUntil { subject.activeCall?.isMediaConnected == true }
        XCTAssertEqual(subject.activeCall?.isMediaSignalled, false, "signalled as start returned, before the engine said so")
        engine.signal()
        waitUntil { subject.activeCall?.isMediaSignalled == true }
    } }

    func test_joinWithoutMediaEndpoint_noMedia() { onMain {
        let (subject, _, engine) = joined(media: nil)
        settle()
        XCTAssertTrue(engine.started.isEmpty)
        XCTAssertNotEqual(subject.activeCall?.isMediaConnected, true)
        XCTAssertEqual(subject.activeCall?.isMediaSignalled, true, "a call page would wait for media that never comes")
    } }

    func test_inCall_togglesReachTheEngine() { onMain {
        let (subject, _, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        subject.toggleMicrophoneEnabled()
        subject.toggleCameraEnabled()
        XCTAssertEqual(engine.audioEnabled.last, false)
        XCTAssertEqual(engine.videoEnabled.last, false)
    } }

    func test_speakerToggledInCall_reachesTheEngine_andTheSpeakerStartsAsSet() { onMain {
        let (subject, _, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        XCTAssertEqual(engine.speakerEnabled.last, true, "media started without being told the speaker is on")
        subject.toggleSpeaker()
        XCTAssertFalse(subject.callSettings.speakerOn)
        XCTAssertEqual(engine.speakerEnabled.last, false, "the speaker still plays")
        subject.toggleSpeaker()
        XCTAssertEqual(engine.speakerEnabled.last, true)
    } }

    func test_mutedByAHost_microphoneTurnsOffHere_andTheUserIsToldByWhom() { onMain {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        let alice = CallParticipant(user: User(id: "alice", name: "Alice Liddell"), sessionID: "s-alice", role: "host", joinedAt: Date())
        service.send(.participantJoined(standup, alice))
        service.send(.mutedByModerator(standup, byUserID: "alice", tracks: .microphone))
        XCTAssertFalse(subject.callSettings.audioOn)
        XCTAssertTrue(subject.callSettings.videoOn, "only the microphone was muted")
        XCTAssertEqual(engine.audioEnabled.last, false, "the microphone still sends")
        XCTAssertEqual(subject.toast?.message, "Alice Liddell turned off your microphone")
    } }

    func test_mutedByAHost_microphoneAndCamera_bothOff_oneMessage() { onMain {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        service.send(.mutedByModerator(standup, byUserID: "alice", tracks: [.microphone, .camera]))
        XCTAssertFalse(subject.callSettings.audioOn)
        XCTAssertFalse(subject.callSettings.videoOn)
        XCTAssertEqual(engine.videoEnabled.last, false)
        XCTAssertEqual(subject.toast?.message, "alice turned off your microphone and camera")
    } }

    func test_mutedByAHost_whileHoldingPushToTalk_microphoneOffAndPushToTalkEnds() { onMain {
        let (subject, service, _) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        subject.toggleMicrophoneEnabled()
        subject.localMedia.startPushToTalk()
        XCTAssertTrue(subject.callSettings.audioOn)
        service.send(.mutedByModerator(standup, byUserID: "alice", tracks: .microphone))
        XCTAssertFalse(subject.callSettings.audioOn)
        XCTAssertFalse(subject.localMedia.isPushToTalkActive)
    } }

    func test_mutedByAHost_alreadyMutedOrAnotherCall_nothingChangesAndNothingIsSaid() { onMain {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        service.send(.mutedByModerator(CallID(type: .default, id: "other"), byUserID: "alice", tracks: .microphone))
        XCTAssertTrue(subject.callSettings.audioOn, "a mute for another call muted this one")
        subject.toggleMicrophoneEnabled()
        let toggles = engine.audioEnabled.count
        service.send(.mutedByModerator(standup, byUserID: "alice", tracks: .microphone))
        XCTAssertEqual(engine.audioEnabled.count, toggles)
        XCTAssertNil(subject.toast)
    } }

    func test_deviceFailsWithAReplacement_userIsToldWhichTookOver_stateUnchanged() { onMain {
        let (subject, _, _) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        let headset = MediaDevice(id: "usb", name: "USB Headset", kind: .microphone)
        let builtIn = MediaDevice(id: "pci", name: "Built-in Audio", kind: .microphone)
        subject.localMedia.deviceFailed(MediaDeviceFailure(device: headset, replacement: builtIn, detail: "device gone"))
        XCTAssertTrue(subject.callSettings.audioOn)
        XCTAssertEqual(subject.toast?.message, "Your microphone “USB Headset” stopped working. Now using “Built-in Audio”.")
    } }

    func test_cameraFailsWithoutReplacement_cameraShowsOff_andTheUserIsTold() { onMain {
        let (subject, _, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        let webcam = MediaDevice(id: "v4l2", name: "HD Webcam", kind: .camera)
        subject.localMedia.deviceFailed(MediaDeviceFailure(device: webcam, replacement: nil, detail: "device gone"))
        XCTAssertFalse(subject.callSettings.videoOn, "the camera still shows as on though nothing is sent")
        XCTAssertEqual(engine.videoEnabled.last, false)
        XCTAssertEqual(subject.toast?.message,
                       "Your camera “HD Webcam” stopped working. Choose another in Devices, or turn it on to try again.")
    } }

    /// A chosen headset pulled out and plugged back in: the call chose again by itself; the
    /// user is told what it uses each time, and nothing is turned off.
    func test_chosenHeadsetPulledOutAndBackIn_userIsToldWhatIsUsed_nothingTurnedOff() { onMain {
        let (subject, _, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        let headset = MediaDevice(id: "usb", name: "USB Headset", kind: .microphone)
        let toggles = engine.audioEnabled.count
        subject.localMedia.rememberedDeviceChanged(RememberedDeviceChange(device: headset, isPluggedIn: false),
                                                   nowUsing: .systemDefault(.microphone))
        XCTAssertEqual(subject.toast?.message, "Your microphone “USB Headset” was unplugged. Now using “System Default”.")
        // Plugged in, but the call did not take it (yet): "in use" would be untrue.
        subject.localMedia.rememberedDeviceChanged(RememberedDeviceChange(device: headset, isPluggedIn: true), nowUsing: .systemDefault(.microphone))
        XCTAssertEqual(subject.toast?.message, "Your microphone “USB Headset” was unplugged. Now using “System Default”.")
        subject.localMedia.rememberedDeviceChanged(RememberedDeviceChange(device: headset, isPluggedIn: true), nowUsing: headset)
        XCTAssertEqual(subject.toast?.message, "Your microphone “USB Headset” is plugged in again and in use.")
        let speaker = MediaDevice(id: "usb-out", name: "USB Headphones", kind: .speaker)
        subject.localMedia.rememberedDeviceChanged(RememberedDeviceChange(device: speaker, isPluggedIn: false), nowUsing: nil)
        XCTAssertEqual(subject.toast?.message, "Your speaker “USB Headphones” was unplugged. Choose another in Devices.")
        XCTAssertTrue(subject.callSettings.audioOn)
        XCTAssertEqual(engine.audioEnabled.count, toggles, "the microphone was turned off or on")
    } }

    /// A camera pulled out also fails (its element errors): the user hears of it once, in
    /// whichever order the two come; plugged in again and lost again, it is told again.
    func test_chosenCameraPulledOut_andFailing_isToldOnce() { onMain {
        let (subject, _, _) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        let webcam = MediaDevice(id: "v4l2", name: "HD Webcam", kind: .camera)
        let builtIn = MediaDevice(id: "uvc", name: "Built-in Camera", kind: .camera)
        subject.localMedia.rememberedDeviceChanged(RememberedDeviceChange(device: webcam, isPluggedIn: false), nowUsing: builtIn)
        let unplugged = subject.toast?.id
        subject.localMedia.deviceFailed(MediaDeviceFailure(device: webcam, replacement: builtIn, detail: "device gone"))
        XCTAssertEqual(subject.toast?.id, unplugged, "the user was told twice that the camera went: \(subject.toast?.message ?? "")")

        subject.localMedia.rememberedDeviceChanged(RememberedDeviceChange(device: webcam, isPluggedIn: true), nowUsing: webcam)
        subject.localMedia.deviceFailed(MediaDeviceFailure(device: webcam, replacement: builtIn, detail: "device gone"))
        XCTAssertEqual(subject.toast?.message, "Your camera “HD Webcam” stopped working. Now using “Built-in Camera”.")
        let failed = subject.toast?.id
        subject.localMedia.rememberedDeviceChanged(RememberedDeviceChange(device: webcam, isPluggedIn: false), nowUsing: builtIn)
        XCTAssertEqual(subject.toast?.id, failed, "the user was told twice that the camera went: \(subject.toast?.message ?? "")")
    } }

    /// A camera that fails, is turned on again by the user and fails again, is told each time.
    func test_cameraFailingAgainLater_isToldAgain() { onMain {
        let (subject, _, _) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        var now = ContinuousClock.now
        subject.localMedia.clock = { now }
        let webcam = MediaDevice(id: "v4l2", name: "HD Webcam", kind: .camera)
        subject.localMedia.deviceFailed(MediaDeviceFailure(device: webcam, replacement: nil, detail: "no picture"))
        let first = subject.toast?.id
        subject.toggleCameraEnabled()
        now += .seconds(20)
        subject.localMedia.deviceFailed(MediaDeviceFailure(device: webcam, replacement: nil, detail: "no picture"))
        XCTAssertNotEqual(subject.toast?.id, first, "the second failure was not told")
        XCTAssertFalse(subject.callSettings.videoOn)
    } }

    func test_chosenDevicePulledOut_outsideACall_saysNothing() { onMain {
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: FakeCallService(), mediaEngine: FakeMediaEngine())
        let headset = MediaDevice(id: "usb", name: "USB Headset", kind: .microphone)
        subject.localMedia.rememberedDeviceChanged(RememberedDeviceChange(device: headset, isPluggedIn: false), nowUsing: nil)
        XCTAssertNil(subject.toast)
    } }

    func test_mediaLost_renewsTheEndpointAndReconnects_theCallGoesOn() { onMain {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        let renewed = MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t-2")
        service.renewedMedia = renewed
        service.renewalsFailing = 1
        engine.fail("Lost the connection to the media server: gone")
        XCTAssertNotEqual(subject.activeCall?.isMediaConnected, true)
        XCTAssertEqual(subject.activeCall?.isReconnectingMedia, true)
        XCTAssertEqual(subject.callingState, .inCall, "the call goes on while media reconnects")
        XCTAssertEqual(subject.toast?.message, "Lost the connection to the media server: gone. Reconnecting audio and video…")
        // First renewal refused (Janus still restarting), the next one (2 s later) works.
        waitUntil(timeout: 6) { subject.activeCall?.isMediaConnected == true }
        XCTAssertEqual(service.requests.filter { $0.hasPrefix("renew media") }.count, 2)
        XCTAssertEqual(engine.started.last?.1, renewed, "media restarted on the renewed endpoint")
        XCTAssertEqual(engine.started.last?.2, "s-self", "same session")
        // Connected is not back: a connection made while the network is still down carries nothing.
        XCTAssertEqual(subject.activeCall?.isReconnectingMedia, true)
        engine.update(["s-self": ParticipantMedia(mediaPath: .connecting)])
        XCTAssertEqual(subject.activeCall?.isReconnectingMedia, true)
        XCTAssertNotEqual(subject.toast?.message, "Audio and video are back.")
        engine.update(["s-self": ParticipantMedia(mediaPath: .up)])
        XCTAssertNotEqual(subject.activeCall?.isReconnectingMedia, true)
        XCTAssertEqual(subject.toast?.message, "Audio and video are back.")
    } }

    /// A joined call whose media was lost and tried twice in vain (the network still away):
    /// the next try would come 4 s later. `renewals` counts the tries made.
    @MainActor private func mediaLostWaitingOutItsBackOff() -> (CallViewModel, FakeCallService, FakeMediaEngine, renewals: @MainActor () -> Int) {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        service.renewedMedia = endpoint
        service.renewalsFailing = 2
        engine.fail("The network connection dropped")
        let renewals: @MainActor () -> Int = { service.requests.filter { $0.hasPrefix("renew media") }.count }
        waitUntil(timeout: 5) { renewals() == 2 }
        settle(seconds: 0.2)
        return (subject, service, engine, renewals)
    }

    func test_mediaLost_waitingOutItsBackOff_triesAtOnce_whenTheCoordinatorsConnectionComesBack() { onMain {
        let (subject, service, engine, renewals) = mediaLostWaitingOutItsBackOff()
        // The network was gone for the coordinator too, and is back: the call is joined again,
        // and media is tried at once, not 4 s later.
        service.send(.connectionLost)
        service.send(.connectionRestored)
        waitUntil(timeout: 2) { renewals() == 3 && subject.activeCall?.isMediaConnected == true }
        XCTAssertEqual(engine.started.count, 2)
    } }

    func test_mediaLost_waitingOutItsBackOff_triesAtOnce_whenTheNetworkChanges() { onMain {
        let (subject, service, engine, renewals) = mediaLostWaitingOutItsBackOff()
        // The laptop is back on its Wi-Fi (an address and routes added), the coordinator's
        // connection never having noticed: media is tried at once, not 4 s later.
        engine.changeNetwork()
        waitUntil(timeout: 1.5) { renewals() == 3 && subject.activeCall?.isMediaConnected == true }
        XCTAssertEqual(engine.started.count, 2)
        XCTAssertEqual(service.networkChanges, 1, "the coordinator's connection was not asked to prove itself")
        // A change with media connected tries nothing.
        engine.changeNetwork()
        settle(seconds: 0.5)
        XCTAssertEqual(renewals(), 3)
    } }

    func test_mediaLostAgain_beforeItWasBack_isSaidOnce_andBackOnceItFlows() { onMain {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        service.renewedMedia = endpoint
        engine.fail("The network connection dropped")
        XCTAssertEqual(subject.toast?.message, "The network connection dropped. Reconnecting audio and video…")
        waitUntil(timeout: 4) { subject.activeCall?.isMediaConnected == true }
        let told = subject.toast?.id
        // The new connection never carried media; the network changes again.
        engine.fail("The network connection dropped")
        XCTAssertEqual(subject.toast?.id, told, "the same loss told twice")
        XCTAssertEqual(subject.activeCall?.isReconnectingMedia, true)
        waitUntil(timeout: 4) { subject.activeCall?.isMediaConnected == true }
        engine.update(["s-self": ParticipantMedia(mediaPath: .up)])
        XCTAssertEqual(subject.toast?.message, "Audio and video are back.")
        XCTAssertEqual(engine.started.count, 3)
    } }

    func test_mediaLost_thenHangUp_stopsTryingToReconnect() { onMain {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        service.renewalsFailing = 100
        engine.fail("Lost the connection to the media server: gone")
        var done = false
        Task { await subject.hangUp(); done = true }
        waitUntil { done }
        let renewals = service.requests.filter { $0.hasPrefix("renew media") }.count
        settle(seconds: 2.5)
        XCTAssertEqual(service.requests.filter { $0.hasPrefix("renew media") }.count, renewals, "still renewing after hanging up")
        XCTAssertNotEqual(subject.activeCall?.isReconnectingMedia, true)
        engine.changeNetwork()
        settle(seconds: 0.5)
        XCTAssertEqual(service.requests.filter { $0.hasPrefix("renew media") }.count, renewals, "a network change after hanging up renewed media")
    } }

    func test_mediaUpdate_showsOnParticipant_evenIfItArrivedBeforeTheJoinEvent() { onMain {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        engine.update(["s-bob": ParticipantMedia(hasVideo: true, hasAudio: true, isSpeaking: true, connectionQuality: .good)])
        service.send(.participantJoined(standup, bob))
        let participant = subject.activeCall?.participants["s-bob"]
        XCTAssertEqual(participant?.hasVideo, true)
        XCTAssertEqual(participant?.connectionQuality, .good)
        engine.update(["s-bob": ParticipantMedia(hasVideo: false, hasAudio: true, isSpeaking: true)])
        XCTAssertEqual(subject.activeCall?.participants["s-bob"]?.hasVideo, false, "a stopped camera shows on the tile")
    } }

    func test_ownUplinkQuality_comesFromOurOwnSessionsEntry_notFromOthers() { onMain {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        service.send(.participantJoined(standup, bob))
        XCTAssertEqual(subject.activeCall?.ownConnectionQuality, .unknown)
        engine.update(["s-bob": ParticipantMedia(hasAudio: true, connectionQuality: .excellent),
                       "s-self": ParticipantMedia(connectionQuality: .poor)])
        XCTAssertEqual(subject.activeCall?.ownConnectionQuality, .poor, "our uplink is poor: the self-view says so")
        XCTAssertEqual(subject.activeCall?.participants["s-bob"]?.connectionQuality, .excellent)
        engine.update(["s-bob": ParticipantMedia(hasAudio: true, connectionQuality: .poor)])
        XCTAssertEqual(subject.activeCall?.ownConnectionQuality, .unknown, "bob's quality is not ours")
    } }

    func test_ourPathDown_isShownAsReconnecting_untilItIsBack() { onMain {
        let (subject, _, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        engine.update(["s-self": ParticipantMedia(connectionQuality: .poor, mediaPath: .down)])
        XCTAssertEqual(subject.activeCall?.isMediaPathDown, true)
        engine.update(["s-self": ParticipantMedia(connectionQuality: .good, mediaPath: .up)])
        XCTAssertEqual(subject.activeCall?.isMediaPathDown, false)
    } }

    func test_speakingParticipant_becomesDominantSpeaker() { onMain {
        let (subject, service, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        service.send(.participantJoined(standup, bob))
        XCTAssertNil(subject.activeCall?.dominantSpeaker)
        engine.update(["s-bob": ParticipantMedia(hasAudio: true, isSpeaking: true)])
        XCTAssertEqual(subject.activeCall?.dominantSpeaker?.sessionID, "s-bob")
    } }

    func test_hangUp_stopsMedia() { onMain {
        let (subject, _, engine) = joined(media: endpoint)
        waitUntil { subject.activeCall?.isMediaConnected == true }
        var done = false
        Task { await subject.hangUp(); done = true }
        waitUntil { done && engine.stopCount == 1 }
        XCTAssertNotEqual(subject.activeCall?.isMediaConnected, true)
    } }

    /// A media server that is down as we join may be back in seconds: the call goes on, says
    /// so, and keeps trying as after a lost connection (it used to give up for the whole call).
    func test_mediaFailsToStart_callGoesOnAndUserIsTold_andItTriesAgainUntilItConnects() { onMain {
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        service.renewedMedia = endpoint
        let engine = FakeMediaEngine()
        engine.failure = CallError("the media server is unreachable")
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        var done = false
        Task { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false); done = true }
        waitUntil { done && subject.toast != nil }
        XCTAssertEqual(subject.callingState, .inCall)
        XCTAssertEqual(subject.toast?.message, "Couldn’t connect audio and video: the media server is unreachable")
        XCTAssertEqual(subject.activeCall?.isReconnectingMedia, true)
        XCTAssertEqual(subject.activeCall?.isRecoveringMedia, true, "gave up after the first attempt")
        engine.failure = nil
        waitUntil(timeout: 4) { subject.activeCall?.isMediaConnected == true }
        XCTAssertGreaterThanOrEqual(service.requests.filter { $0.hasPrefix("renew media") }.count, 1)
        engine.update(["s-self": ParticipantMedia(mediaPath: .up)])
        XCTAssertNotEqual(subject.activeCall?.isReconnectingMedia, true)
    } }
}
