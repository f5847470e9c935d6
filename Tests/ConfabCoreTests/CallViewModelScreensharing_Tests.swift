@testable import ConfabCore
import Foundation
import XCTest

/// Sharing our screen through the media engine, and others' shares as participant state.
final class CallViewModelScreensharing_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private let endpoint = MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t-1")
    private let bob = CallParticipant(user: User(id: "bob"), sessionID: "s-bob", role: "user", joinedAt: Date())

    @MainActor private func inCall(capabilities: Set<OwnCapability> = [.screenshare]) -> (CallViewModel, FakeCallService, FakeMediaEngine) {
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        service.capabilitiesOnJoin = capabilities
        let engine = FakeMediaEngine()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        var done = false
        Task { await subject.startCall(CallID(type: .default, id: "standup"), members: [], ring: false); done = true }
        waitUntil { done && subject.activeCall?.isMediaConnected == true }
        return (subject, service, engine)
    }

    @MainActor private func run(_ action: @escaping @MainActor () async -> Void) {
        var done = false
        Task { await action(); done = true }
        waitUntil { done }
    }

    func test_startScreensharing_withCapability_publishesTheScreenAndShowsUsSharing() { onMain {
        let (subject, _, engine) = inCall()
        XCTAssertTrue(subject.activeCall?.can(.screenshare) == true)
        run { await subject.activeCall?.startScreensharing(source: .test) }
        XCTAssertEqual(engine.screenshareStarts, [.test])
        XCTAssertEqual(subject.activeCall?.isCurrentUserScreensharing, true)
        XCTAssertEqual(subject.activeCall?.isAnyoneScreensharing, true)
    } }

    func test_startScreensharing_withoutCapability_isRefusedWithAMessage() { onMain {
        let (subject, _, engine) = inCall(capabilities: [.sendAudio, .sendVideo])
        run { await subject.activeCall?.startScreensharing() }
        XCTAssertTrue(engine.screenshareStarts.isEmpty)
        XCTAssertNotEqual(subject.activeCall?.isCurrentUserScreensharing, true)
        XCTAssertEqual(subject.toast?.message, "You don’t have permission to share your screen in this call.")
    } }

    func test_startScreensharing_captureFails_userIsToldAndNotShownSharing() { onMain {
        let (subject, _, engine) = inCall()
        engine.screenshareFailure = CallError("no X display")
        run { await subject.activeCall?.startScreensharing(source: .x11) }
        XCTAssertNotEqual(subject.activeCall?.isCurrentUserScreensharing, true)
        XCTAssertEqual(subject.toast?.message, "Couldn’t share your screen: no X display")
    } }

    func test_startScreensharing_userCancelsTheDesktopDialog_noMessageAndNotSharing() { onMain {
        let (subject, _, engine) = inCall()
        engine.screenshareFailure = ScreenshareCancelled()
        run { await subject.activeCall?.startScreensharing(source: .portal) }
        XCTAssertNotEqual(subject.activeCall?.isCurrentUserScreensharing, true)
        XCTAssertNil(subject.toast, "cancelling the dialog is not an error to report")
    } }

    func test_shareEndsByItself_userIsToldAndTheCaptureIsReleased() { onMain {
        let (subject, _, engine) = inCall()
        run { await subject.activeCall?.startScreensharing(source: .portal) }
        XCTAssertEqual(subject.activeCall?.isCurrentUserScreensharing, true)
        engine.endScreenshare("Screen sharing was stopped from the desktop.")
        XCTAssertNotEqual(subject.activeCall?.isCurrentUserScreensharing, true)
        XCTAssertEqual(subject.toast?.message, "Screen sharing was stopped from the desktop.")
        waitUntil { engine.screenshareStopCount == 1 }
    } }

    func test_shareEndsByItself_afterStopSharing_saysNothing() { onMain {
        let (subject, _, engine) = inCall()
        run { await subject.activeCall?.startScreensharing(source: .test) }
        run { await subject.activeCall?.stopScreensharing() }
        engine.endScreenshare("late news")
        XCTAssertNil(subject.toast)
        XCTAssertEqual(engine.screenshareStopCount, 1)
    } }

    func test_stopScreensharing_stopsPublishing() { onMain {
        let (subject, _, engine) = inCall()
        run { await subject.activeCall?.startScreensharing(source: .test) }
        run { await subject.activeCall?.stopScreensharing() }
        XCTAssertEqual(engine.screenshareStopCount, 1)
        XCTAssertNotEqual(subject.activeCall?.isCurrentUserScreensharing, true)
        XCTAssertNotEqual(subject.activeCall?.isAnyoneScreensharing, true)
    } }

    func test_hangUp_whileSharing_endsTheShare() { onMain {
        let (subject, _, engine) = inCall()
        run { await subject.activeCall?.startScreensharing(source: .test) }
        run { await subject.hangUp() }
        waitUntil { engine.stopCount == 1 }
        XCTAssertNotEqual(subject.activeCall?.isCurrentUserScreensharing, true)
    } }

    func test_remoteShare_showsAsParticipantScreensharing_andGoesWhenItStops() { onMain {
        let (subject, service, engine) = inCall()
        service.send(.participantJoined(standup, bob))
        let size = VideoSize(width: 1280, height: 720)
        engine.update(["s-bob": ParticipantMedia(hasVideo: true, isScreensharing: true, screenshareTrackSize: size)])
        XCTAssertEqual(subject.activeCall?.participants["s-bob"]?.isScreensharing, true)
        XCTAssertEqual(subject.activeCall?.participants["s-bob"]?.screenshareTrackSize, size)
        XCTAssertEqual(subject.activeCall?.screensharingParticipant?.sessionID, "s-bob")
        XCTAssertEqual(subject.activeCall?.isAnyoneScreensharing, true)
        XCTAssertNotEqual(subject.activeCall?.isCurrentUserScreensharing, true, "someone else's share is not ours")

        engine.update(["s-bob": ParticipantMedia(hasVideo: true)])
        XCTAssertEqual(subject.activeCall?.participants["s-bob"]?.isScreensharing, false)
        XCTAssertNil(subject.activeCall?.screensharingParticipant)
        XCTAssertNotEqual(subject.activeCall?.isAnyoneScreensharing, true)
    } }
}
