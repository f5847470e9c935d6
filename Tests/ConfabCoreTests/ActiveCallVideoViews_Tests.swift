@testable import ConfabCore
import Foundation
import XCTest

/// Sending the size that is shown (issue 15), through the call: what this device shows is told
/// to the call, and what the others show of our camera limits what the engine sends.
final class ActiveCallVideoViews_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private let endpoint = MediaEndpointInfo(url: "ws://127.0.0.1:8188", room: 42, token: "t-1")
    private let bob = User(id: "bob", name: "Bob")
    private let cy = User(id: "cy", name: "Cy")
    /// Bob's camera in a tile of a 2x2 grid.
    private let bobsTile = VideoSize(width: 430, height: 242)
    /// How large bob shows our camera.
    private let oursAtBobs = VideoSize(width: 854, height: 480)

    @MainActor private func run(_ action: @escaping @MainActor () async -> Void) {
        var done = false
        Task { await action(); done = true }
        waitUntil { done }
    }

    @MainActor private func participant(_ user: User, session: String? = nil) -> CallParticipant {
        CallParticipant(user: user, sessionID: session ?? "s-\(user.id)", role: "user", joinedAt: Date(timeIntervalSince1970: 1000))
    }

    /// The view model routes the service's events to the call and is held only weakly by the
    /// service: kept here for the test's length, or events sent to a discarded one go nowhere.
    private nonisolated(unsafe) var viewModel: CallViewModel?

    /// Ada in the standup with bob, media connected (our session is "s-self"), the engine
    /// showing `shown`.
    @MainActor private func inCall(showing shown: [String: VideoSize]? = nil) -> (CallViewModel, FakeCallService, FakeMediaEngine) {
        let service = FakeCallService()
        service.mediaOnJoin = endpoint
        service.participantsOnJoin = [participant(User(id: "ada"), session: "s-self"), participant(bob)]
        let engine = FakeMediaEngine()
        engine.shownVideo = shown
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service, mediaEngine: engine)
        run { await subject.startCall(self.standup, members: [], ring: false) }
        waitUntil { subject.activeCall?.isMediaConnected == true }
        viewModel = subject
        return (subject, service, engine)
    }

    // MARK: Telling the call what we show

    func test_joiningWithMedia_tellsTheCallWhatTheEngineShows() { onMain {
        let (_, service, _) = inCall(showing: ["s-bob": bobsTile])

        waitUntil { !service.videoViewsTold.isEmpty }

        XCTAssertEqual(service.videoViewsTold, [["s-bob": bobsTile]])
    } }

    func test_shownVideoChanging_isToldAgain() { onMain {
        let (_, service, engine) = inCall(showing: ["s-bob": bobsTile])
        waitUntil { service.videoViewsTold.count == 1 }
        let enlarged = VideoSize(width: 1280, height: 720)

        engine.shownVideo = ["s-bob": enlarged]

        waitUntil { service.videoViewsTold.count == 2 }
        XCTAssertEqual(service.videoViewsTold.last, ["s-bob": enlarged])
    } }

    func test_manyChangesWithinTheInterval_areToldOnce_withTheLast() { onMain {
        let (_, service, engine) = inCall(showing: ["s-bob": bobsTile])
        waitUntil { service.videoViewsTold.count == 1 }

        // A window being resized: a new size every frame.
        for width in stride(from: 440, through: 640, by: 20) {
            engine.shownVideo = ["s-bob": VideoSize(width: width, height: width * 9 / 16)]
        }

        waitUntil { service.videoViewsTold.count == 2 }
        // Only time can tell that no more come: well past the 250 ms interval.
        settle(seconds: 0.6)
        XCTAssertEqual(service.videoViewsTold.count, 2, "\(service.videoViewsTold)")
        XCTAssertEqual(service.videoViewsTold.last, ["s-bob": VideoSize(width: 640, height: 360)])
    } }

    func test_participantJoining_hearsOurViewsAgain_thoughTheyDidNotChange() { onMain {
        let (_, service, _) = inCall(showing: ["s-bob": bobsTile])
        waitUntil { service.videoViewsTold.count == 1 }

        service.send(.participantJoined(standup, participant(cy)))

        waitUntil { service.videoViewsTold.count == 2 }
        XCTAssertEqual(service.videoViewsTold.last, ["s-bob": bobsTile], "cy has not heard them")
    } }

    func test_afterTheCallEnds_changesOfWhatIsShown_areNotTold() { onMain {
        let (subject, service, engine) = inCall(showing: ["s-bob": bobsTile])
        waitUntil { service.videoViewsTold.count == 1 }
        // Still held (a window closing late, say): the call must let go of the engine itself.
        let ended = subject.activeCall

        run { await subject.hangUp() }
        engine.shownVideo = ["s-bob": VideoSize(width: 1280, height: 720)]

        XCTAssertEqual(ended?.isEnded, true)
        XCTAssertEqual(engine.shownVideoWatcherCount, 0, "the ended call still watches the engine's views")
        settle(seconds: 0.6)
        XCTAssertEqual(service.videoViewsTold.count, 1, "\(service.videoViewsTold)")
    } }

    // MARK: Limiting our camera to what the others show

    func test_onlyOtherParticipantsViews_limitOurCamera_toTheirViewOfIt() { onMain {
        let (_, service, engine) = inCall()

        service.send(.videoViews(standup, viewerSessionID: "s-bob", views: ["s-self": oursAtBobs]))

        XCTAssertEqual(engine.cameraLimits, [.largest(oursAtBobs)])
    } }

    func test_participantJoiningWhoHasNotSaid_liftsTheLimit_untilTheyLeave() { onMain {
        let (_, service, engine) = inCall()
        service.send(.videoViews(standup, viewerSessionID: "s-bob", views: ["s-self": oursAtBobs]))
        XCTAssertEqual(engine.cameraLimits.last, .largest(oursAtBobs), "given: limited to bob's view")

        service.send(.participantJoined(standup, participant(cy)))
        XCTAssertEqual(engine.cameraLimits.last, .unknown, "cy may show us at any size")

        service.send(.participantLeft(standup, participant(cy)))
        XCTAssertEqual(engine.cameraLimits, [.largest(oursAtBobs), .unknown, .largest(oursAtBobs)])
    } }

    func test_recordedCall_sendsOurCameraUnlimited_untilTheRecordingStops() { onMain {
        let (_, service, engine) = inCall()
        service.send(.videoViews(standup, viewerSessionID: "s-bob", views: ["s-self": oursAtBobs]))
        var snapshot = CallSnapshot(id: standup, createdBy: "ada", participants: [participant(bob)])

        snapshot.isRecording = true
        service.send(.callUpdated(snapshot))
        XCTAssertEqual(engine.cameraLimits.last, .unknown, "a recording wants the full picture")

        snapshot.isRecording = false
        service.send(.callUpdated(snapshot))
        XCTAssertEqual(engine.cameraLimits, [.largest(oursAtBobs), .unknown, .largest(oursAtBobs)])
    } }

    /// The app keeps one media engine for all its calls: a limit is the call's, not the engine's.
    func test_nextCall_startsWithOurCameraUnlimited_notAtTheLastCallsLimit() { onMain {
        let (subject, service, engine) = inCall()
        service.send(.videoViews(standup, viewerSessionID: "s-bob", views: ["s-self": oursAtBobs]))
        XCTAssertEqual(engine.cameraLimits.last, .largest(oursAtBobs), "given: the first call limited our camera")
        run { await subject.hangUp() }

        run { await subject.startCall(CallID(type: .default, id: "retro"), members: [], ring: false) }
        waitUntil { subject.activeCall?.isMediaConnected == true }

        XCTAssertEqual(engine.cameraLimits.last, .unknown, "bob has not said how large he shows us in this call")
    } }

    func test_viewsFromSomeoneNotInTheCall_limitNothing() { onMain {
        let (_, service, engine) = inCall()

        service.send(.videoViews(standup, viewerSessionID: "s-mallory", views: ["s-self": oursAtBobs]))
        service.send(.videoViews(CallID(type: .default, id: "retro"), viewerSessionID: "s-bob", views: ["s-self": oursAtBobs]))

        XCTAssertEqual(engine.cameraLimits, [])
    } }
}
