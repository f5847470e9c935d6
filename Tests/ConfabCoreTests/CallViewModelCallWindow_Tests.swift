@testable import ConfabCore
import Foundation
import XCTest

/// What the call windows read from the view model: layout, pins, sounds, push to talk,
/// join/leave messages and the call-ended page.
final class CallViewModelCallWindow_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private func participant(_ id: String, _ order: Int, speaking: Bool = false, pinned: Bool = false) -> CallParticipant {
        CallParticipant(user: User(id: id), sessionID: "s-\(id)", role: "user", joinedAt: Date(timeIntervalSince1970: Double(order)),
                        isPinned: pinned, media: ParticipantMedia(isSpeaking: speaking))
    }

    @MainActor private func inCall() -> (CallViewModel, FakeCallService) {
        let service = FakeCallService()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        var done = false
        Task { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false); done = true }
        waitUntil { done }
        return (subject, service)
    }

    func test_sounds_followCallingState() {
        XCTAssertEqual(CallSound.forState(.incoming(IncomingCall(id: "x", caller: User(id: "b"), type: .default, members: [], timeout: .seconds(1), video: true))), .incomingRing)
        XCTAssertEqual(CallSound.forState(.outgoing), .outgoingRing)
        for state in [CallingState.idle, .joining, .inCall, .reconnecting] { XCTAssertNil(CallSound.forState(state)) }
    }

    func test_spotlight_prefersLocalPin_thenPinForEveryone_thenSpeaker_thenFirst() { onMain {
        let (subject, service) = inCall()
        service.send(.participantJoined(standup, participant("bob", 1)))
        service.send(.participantJoined(standup, participant("cy", 2)))
        XCTAssertEqual(subject.activeCall?.spotlightParticipant?.user.id, "bob", "first to join")
        service.send(.participantJoined(standup, participant("cy", 2, pinned: true)))
        XCTAssertEqual(subject.activeCall?.spotlightParticipant?.user.id, "cy", "pinned for everyone")
        subject.activeCall?.toggleLocalPin(sessionID: "s-bob")
        XCTAssertEqual(subject.activeCall?.spotlightParticipant?.user.id, "bob", "pinned here wins")
        subject.activeCall?.toggleLocalPin(sessionID: "s-bob")
        XCTAssertEqual(subject.activeCall?.locallyPinned.isEmpty, true)
    } }

    func test_tileOrder_pinnedHereFirst_thenPinnedForEveryone_thenJoinOrder() { onMain {
        let (subject, service) = inCall()
        for (order, id) in ["bob", "cy", "dee", "eve"].enumerated() { service.send(.participantJoined(standup, participant(id, order + 1))) }
        @MainActor func order() -> [String] { subject.activeCall?.othersInTileOrder.map(\.user.id) ?? [] }
        XCTAssertEqual(order(), ["bob", "cy", "dee", "eve"], "join order while nobody is pinned")
        service.send(.participantJoined(standup, participant("eve", 4, pinned: true)))
        XCTAssertEqual(order(), ["eve", "bob", "cy", "dee"], "pinned for everyone comes first")
        subject.activeCall?.toggleLocalPin(sessionID: "s-dee")
        XCTAssertEqual(order(), ["dee", "eve", "bob", "cy"], "pinned here before pinned for everyone")
        subject.activeCall?.toggleLocalPin(sessionID: "s-dee")
        XCTAssertEqual(order(), ["eve", "bob", "cy", "dee"], "unpinned: back in its join place")
    } }

    func test_layout_update() { onMain {
        let (subject, _) = inCall()
        XCTAssertEqual(subject.participantsLayout, .grid)
        subject.update(participantsLayout: .spotlight)
        XCTAssertEqual(subject.participantsLayout, .spotlight)
    } }

    func test_joinAndLeave_areAnnounced() { onMain {
        let (subject, service) = inCall()
        service.send(.participantJoined(standup, participant("bob", 1)))
        XCTAssertEqual(subject.toast?.message, "bob joined")
        service.send(.participantLeft(standup, participant("bob", 1)))
        XCTAssertEqual(subject.toast?.message, "bob left")
    } }

    func test_afterOurRejoin_someoneWhoWasInTheCallComingBack_isNotToldAsJoining() { onMain {
        let (subject, service) = inCall()
        service.send(.participantJoined(standup, participant("bob", 1)))
        service.send(.participantJoined(standup, participant("cy", 2)))
        XCTAssertEqual(subject.toast?.message, "bob and cy joined")
        // The coordinator restarted: we join again first and find only cy (her session kept);
        // bob comes back a moment later with a new session.
        service.participantsOnJoin = [participant("cy", 2)]
        service.send(.connectionLost)
        service.send(.connectionRestored)
        waitUntil { subject.callingState == .inCall && service.joined.count == 2 }
        let before = subject.toast?.id
        var back = participant("bob", 1)
        back.sessionID = "s-bob-2"
        service.send(.participantJoined(standup, back))
        XCTAssertEqual(subject.activeCall?.others.map(\.user.id).sorted(), ["bob", "cy"])
        XCTAssertEqual(subject.toast?.id, before, "bob, in the call all along, told as joining: \(subject.toast?.message ?? "")")
        // Someone new is still news (grown into the message of moments ago).
        service.send(.participantJoined(standup, participant("dee", 3)))
        XCTAssertNotEqual(subject.toast?.id, before)
        XCTAssertEqual(subject.toast?.message, "bob, cy and dee joined")
    } }

    func test_peopleJoiningMomentsApart_areOneMessageThatGrows_inThePlaceOfTheLast() { onMain {
        let (subject, service) = inCall()
        service.send(.participantJoined(standup, participant("bob", 1)))
        let first = subject.toast
        XCTAssertEqual(first?.message, "bob joined")
        XCTAssertNil(first?.replaces)
        service.send(.participantJoined(standup, participant("cy", 2)))
        XCTAssertEqual(subject.toast?.message, "bob and cy joined")
        XCTAssertEqual(subject.toast?.replaces, first?.id, "shown in the place of \"bob joined\", not queued after it")
        let second = subject.toast
        service.send(.participantJoined(standup, participant("dee", 3)))
        XCTAssertEqual(subject.toast?.message, "bob, cy and dee joined")
        XCTAssertEqual(subject.toast?.replaces, second?.id)
        service.send(.participantLeft(standup, participant("cy", 2)))
        XCTAssertEqual(subject.toast?.message, "cy left", "leaving is news of its own")
        XCTAssertNil(subject.toast?.replaces)
        service.send(.participantLeft(standup, participant("bob", 1)))
        XCTAssertEqual(subject.toast?.message, "cy and bob left")
    } }

    func test_peopleNews_growsWithinAToastsTime_thenStartsAgain() {
        var news = PeopleNews(.joined)
        let start = Date()
        XCTAssertEqual(news.add("ann", at: start).message, "ann joined")
        for (offset, name) in ["bob", "cy", "dee", "eve"].enumerated() {
            XCTAssertTrue(news.add(name, at: start.addingTimeInterval(Double(offset + 1) * 4)).grows, "each within 5 s of the last")
        }
        XCTAssertEqual(news.add("fay", at: start.addingTimeInterval(20)).message, "ann, bob and 4 others joined")
        let later = news.add("gus", at: start.addingTimeInterval(26))
        XCTAssertEqual(later.message, "gus joined")
        XCTAssertFalse(later.grows, "6 s after the last: the toast is gone, this is news of its own")
        XCTAssertEqual(PeopleNews.message(["ann", "bob", "cy"], .left), "ann, bob and cy left")
    }

    func test_pushToTalk_opensMicWhileHeld_onlyWhenMuted() { onMain {
        let (subject, _) = inCall()
        subject.localMedia.startPushToTalk()
        XCTAssertFalse(subject.localMedia.isPushToTalkActive, "not muted: nothing to do")
        subject.toggleMicrophoneEnabled()
        subject.localMedia.startPushToTalk()
        XCTAssertTrue(subject.callSettings.audioOn)
        subject.localMedia.endPushToTalk()
        XCTAssertFalse(subject.callSettings.audioOn)
    } }

    func test_hangingUpWhileHoldingPushToTalk_nextCallStartsMuted() { onMain {
        let (subject, _) = inCall()
        subject.toggleMicrophoneEnabled()
        subject.localMedia.startPushToTalk()
        var done = false
        Task { await subject.hangUp(); done = true }
        waitUntil { done }
        XCTAssertFalse(subject.localMedia.isPushToTalkActive)
        XCTAssertFalse(subject.callSettings.audioOn, "the microphone was open only while the key was held")
    } }

    func test_callEndedByOthers_showsEndedPage_untilDismissed() { onMain {
        let (subject, service) = inCall()
        subject.isMinimized = true
        service.send(.ended(standup, reason: "bob ended the call"))
        XCTAssertEqual(subject.endedCall, EndedCall(call: standup, reason: "bob ended the call"))
        XCTAssertFalse(subject.isMinimized)
        subject.dismissEndedCall()
        XCTAssertNil(subject.endedCall)
    } }

    func test_hangUpOurselves_noEndedPage() { onMain {
        let (subject, _) = inCall()
        var done = false
        Task { await subject.hangUp(); done = true }
        waitUntil { done }
        XCTAssertNil(subject.endedCall)
    } }

    func test_acceptAudioOnly_joinsWithCameraOff() { onMain {
        let service = FakeCallService()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        service.send(.ringing(IncomingCall(id: "standup", caller: User(id: "bob"), type: .default, members: [], timeout: .seconds(30), video: true)))
        var done = false
        Task { await subject.acceptCall(CallID(type: .default, id: "standup"), video: false); done = true }
        waitUntil { done }
        XCTAssertEqual(subject.callingState, .inCall)
        XCTAssertEqual(service.joined.first?.1.videoOn, false)
    } }
}

final class CallViewModelRecording_Tests: XCTestCase {
    func test_recordingFlag_andPinsForEveryone_followCallUpdates() { onMain {
        let service = FakeCallService()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        var done = false
        Task { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false); done = true }
        waitUntil { done }
        let standup = CallID(type: .default, id: "standup")
        let bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date())
        service.send(.participantJoined(standup, bob))
        var snapshot = CallSnapshot(id: standup, createdBy: "ada", participants: [CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date(), isPinned: true)])
        snapshot.isRecording = true
        service.send(.callUpdated(snapshot))
        XCTAssertEqual(subject.activeCall?.isRecording, true)
        XCTAssertEqual(subject.activeCall?.participants["s-bob"]?.isPinned, true)
    } }
}

final class CallViewModelProduction_Tests: XCTestCase {
    func test_recordingAndBroadcastState_followCallUpdates_andRefusalsAreShown() { onMain {
        let service = FakeCallService()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        var done = false
        Task { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false); done = true }
        waitUntil { done }
        var snapshot = CallSnapshot(id: CallID(type: .default, id: "standup"), createdBy: "ada")
        snapshot.recordingState = .recording
        snapshot.isRecording = true
        snapshot.broadcasting = true
        snapshot.hlsPlaylistUrl = "http://127.0.0.1:8630/live/abc/playlist.m3u8"
        snapshot.recordings = [CallRecordingInfo(participant: "bob", start: Date(), duration: 5, size: 1000, downloadURL: "http://x/rec.mkv")]
        service.send(.callUpdated(snapshot))
        XCTAssertEqual(subject.activeCall?.recordingState, .recording)
        XCTAssertEqual(subject.activeCall?.isBroadcasting, true)
        XCTAssertEqual(subject.activeCall?.hlsPlaylistUrl, "http://127.0.0.1:8630/live/abc/playlist.m3u8")
        XCTAssertEqual(subject.activeCall?.recordings.map(\.participant), ["bob"])

        // The fake has no recording: its refusal reaches the user.
        var stopped = false
        Task { await subject.activeCall?.toggleRecording(); stopped = true }
        waitUntil { stopped }
        XCTAssertEqual(subject.toast?.message, "Couldn’t stop recording: This call service cannot record.")
    } }
}

final class SpeakingWhileMuted_Tests: XCTestCase {
    func test_mutedAndTalking_showsAfterAMoment_hidesWhenQuietOrUnmuted() {
        var detector = SpeakingWhileMutedDetector()
        XCTAssertFalse(detector.record(decibels: -20, microphoneOn: false))
        XCTAssertFalse(detector.record(decibels: -20, microphoneOn: false))
        XCTAssertTrue(detector.record(decibels: -20, microphoneOn: false), "three loud readings in a row")
        for _ in 0..<9 { XCTAssertTrue(detector.record(decibels: -70, microphoneOn: false)) }
        XCTAssertFalse(detector.record(decibels: -70, microphoneOn: false), "quiet for two seconds")
        for _ in 0..<3 { _ = detector.record(decibels: -20, microphoneOn: false) }
        XCTAssertFalse(detector.record(decibels: -20, microphoneOn: true), "unmuted: no hint")
    }

    func test_notMuted_neverShows() {
        var detector = SpeakingWhileMutedDetector()
        for _ in 0..<10 { XCTAssertFalse(detector.record(decibels: -10, microphoneOn: true)) }
    }

    func test_viewModel_followsReadingsWhileMuted() { onMain {
        let subject = CallViewModel(currentUser: User(id: "ada"))
        subject.toggleMicrophoneEnabled()
        for _ in 0..<3 { subject.localMedia.recordLocalAudioLevel(-15) }
        XCTAssertTrue(subject.localMedia.isSpeakingWhileMuted)
        subject.toggleMicrophoneEnabled()
        subject.localMedia.recordLocalAudioLevel(-15)
        XCTAssertFalse(subject.localMedia.isSpeakingWhileMuted)
    } }
}
