@testable import ConfabCore
import Foundation
import XCTest

/// Sharing our screen through the media engine, and others' shares as participant state.
final class CallViewModelScreensharing_Tests: XCTestCase {
    private let standup = CallID(type: "default", id: "standup")
    private let endpoint = MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t-1")
    private let bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date())

    @MainActor private func inCall(capabilities: Set<String> = ["screenshare"]) -> (CallViewModel, FakeCallService, FakeMediaEngine) {
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        service.capabilitiesOnJoin = capabilities
        let engine = FakeMediaEngine()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        var done = false
        Task { await subject.startCall(callType: "default", callId: "standup", members: [], ring: false); done = true }
        waitUntil { done && subject.isMediaConnected }
        return (subject, service, engine)
    }

    @MainActor private func run(_ action: @escaping @MainActor () async -> Void) {
        var done = false
        Task { await action(); done = true }
        waitUntil { done }
    }

    func test_startScreensharing_withCapability_publishesTheScreenAndShowsUsSharing() { onMain {
        let (subject, _, engine) = inCall()
        XCTAssertTrue(subject.canScreenshare)
        run { await subject.startScreensharing(source: .test) }
        XCTAssertEqual(engine.screenshareStarts, [.test])
        XCTAssertTrue(subject.isCurrentUserScreensharing)
        XCTAssertTrue(subject.isAnyoneScreensharing)
    } }

    func test_startScreensharing_withoutCapability_isRefusedWithAMessage() { onMain {
        let (subject, _, engine) = inCall(capabilities: ["sendAudio", "sendVideo"])
        run { await subject.startScreensharing() }
        XCTAssertTrue(engine.screenshareStarts.isEmpty)
        XCTAssertFalse(subject.isCurrentUserScreensharing)
        XCTAssertEqual(subject.toast?.message, "You don’t have permission to share your screen in this call.")
    } }

    func test_startScreensharing_captureFails_userIsToldAndNotShownSharing() { onMain {
        let (subject, _, engine) = inCall()
        engine.screenshareFailure = CallError("no X display")
        run { await subject.startScreensharing(source: .x11) }
        XCTAssertFalse(subject.isCurrentUserScreensharing)
        XCTAssertEqual(subject.toast?.message, "Couldn’t share your screen: no X display")
    } }

    func test_startScreensharing_userCancelsTheDesktopDialog_noMessageAndNotSharing() { onMain {
        let (subject, _, engine) = inCall()
        engine.screenshareFailure = ScreenshareCancelled()
        run { await subject.startScreensharing(source: .portal) }
        XCTAssertFalse(subject.isCurrentUserScreensharing)
        XCTAssertNil(subject.toast, "cancelling the dialog is not an error to report")
    } }

    func test_shareEndsByItself_userIsToldAndTheCaptureIsReleased() { onMain {
        let (subject, _, engine) = inCall()
        run { await subject.startScreensharing(source: .portal) }
        XCTAssertTrue(subject.isCurrentUserScreensharing)
        engine.endScreenshare("Screen sharing was stopped from the desktop.")
        XCTAssertFalse(subject.isCurrentUserScreensharing)
        XCTAssertEqual(subject.toast?.message, "Screen sharing was stopped from the desktop.")
        waitUntil { engine.screenshareStopCount == 1 }
    } }

    func test_shareEndsByItself_afterStopSharing_saysNothing() { onMain {
        let (subject, _, engine) = inCall()
        run { await subject.startScreensharing(source: .test) }
        run { await subject.stopScreensharing() }
        engine.endScreenshare("late news")
        XCTAssertNil(subject.toast)
        XCTAssertEqual(engine.screenshareStopCount, 1)
    } }

    func test_stopScreensharing_stopsPublishing() { onMain {
        let (subject, _, engine) = inCall()
        run { await subject.startScreensharing(source: .test) }
        run { await subject.stopScreensharing() }
        XCTAssertEqual(engine.screenshareStopCount, 1)
        XCTAssertFalse(subject.isCurrentUserScreensharing)
        XCTAssertFalse(subject.isAnyoneScreensharing)
    } }

    func test_hangUp_whileSharing_endsTheShare() { onMain {
        let (subject, _, engine) = inCall()
        run { await subject.startScreensharing(source: .test) }
        run { await subject.hangUp() }
        waitUntil { engine.stopCount == 1 }
        XCTAssertFalse(subject.isCurrentUserScreensharing)
    } }

    func test_remoteShare_showsAsParticipantScreensharing_andGoesWhenItStops() { onMain {
        let (subject, service, engine) = inCall()
        service.send(.participantJoined(standup, bob))
        let size = VideoSize(width: 1280, height: 720)
        engine.update(["s-bob": ParticipantMedia(hasVideo: true, isScreensharing: true, screenshareTrackSize: size)])
        XCTAssertEqual(subject.callParticipants["s-bob"]?.isScreensharing, true)
        XCTAssertEqual(subject.callParticipants["s-bob"]?.screenshareTrackSize, size)
        XCTAssertEqual(subject.screensharingParticipant?.sessionID, "s-bob")
        XCTAssertTrue(subject.isAnyoneScreensharing)
        XCTAssertFalse(subject.isCurrentUserScreensharing, "someone else's share is not ours")

        engine.update(["s-bob": ParticipantMedia(hasVideo: true)])
        XCTAssertEqual(subject.callParticipants["s-bob"]?.isScreensharing, false)
        XCTAssertNil(subject.screensharingParticipant)
        XCTAssertFalse(subject.isAnyoneScreensharing)
    } }
}
