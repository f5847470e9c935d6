import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// A device's video views (how large it shows each other camera): checked, relayed to the call
/// as `call.video_views_updated` with the device's session, never kept.
final class VideoViewsTests: ServerTestCase {
    func test_videoViews_fromParticipant_reachTheOthers_withSendersSessionAndTheSameViews() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let alicesSession = try await alice.send(JoinCallRequest(cid: call)).sessionId
        let bobsSession = try await bob.send(JoinCallRequest(cid: call)).sessionId
        let views = [VideoView(sessionId: alicesSession, width: 640, height: 360)]

        let response = try await bob.send(UpdateVideoViewsRequest(cid: call, views: views))

        XCTAssertEqual(response, EmptyResponse())
        let seen = try await alice.nextEvent(.videoViewsUpdated).videoViews
        XCTAssertEqual(seen, VideoViewsEvent(cid: call, userId: "bob", sessionId: bobsSession, views: views))
    }

    func test_videoViewsFlood_isRateLimited_andOthersHearOnlyTheBurst() async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let alicesSession = try await alice.send(JoinCallRequest(cid: call)).sessionId
        _ = try await bob.send(JoinCallRequest(cid: call))
        let burst = SessionRateLimits().videoViews.burst

        var refusals: [ErrorCode] = []
        for width in 1...(burst + 10) {
            do {
                _ = try await bob.send(UpdateVideoViewsRequest(cid: call, views: [VideoView(sessionId: alicesSession, width: width, height: 90)]))
            } catch let error as ProtocolError {
                refusals.append(error.code)
            }
        }

        XCTAssertEqual(refusals, Array(repeating: .rateLimited, count: 10))
        try await alice.barrier()
        let seen = await alice.receivedEvents(.videoViewsUpdated).compactMap(\.videoViews)
        XCTAssertEqual(seen.map { $0.views.first?.width }, (1...burst).map { $0 }, "alice hears the burst, in order, and nothing after")
    }

    func test_videoViews_withAZeroWidth_areRefusedAsInvalid_andReachNoOne() async throws {
        try await assertRefusedAsInvalid(views: { alicesSession in [VideoView(sessionId: alicesSession, width: 0, height: 360)] },
                                         naming: "width")
    }

    func test_videoViews_moreThanTheMaximum_areRefusedAsInvalid_andReachNoOne() async throws {
        try await assertRefusedAsInvalid(
            views: { _ in (0...VideoView.maxViews).map { VideoView(sessionId: "s\($0)", width: 320, height: 180) } },
            naming: "at most \(VideoView.maxViews)")
    }

    func test_videoViews_twoOfOneSession_areRefusedAsInvalid_andReachNoOne() async throws {
        try await assertRefusedAsInvalid(
            views: { alicesSession in
                [VideoView(sessionId: alicesSession, width: 640, height: 360), VideoView(sessionId: alicesSession, width: 320, height: 180)]
            },
            naming: "one view per session")
    }

    func test_videoViews_fromSomeoneNotInTheCall_areRefused_andReachNoOne() async throws {
        let (alice, _, call) = try await callWithAliceAndBobIn()
        let carol = try await connect("carol")
        _ = try await alice.send(AddMembersRequest(cid: call, members: [MemberRequest(userId: "carol")]))
        let stranger = try await connect("mallory")
        let views = [VideoView(sessionId: "any", width: 640, height: 360)]

        let notJoined = try await carol.sendExpectingError(UpdateVideoViewsRequest(cid: call, views: views))
        let notAMember = try await stranger.sendExpectingError(UpdateVideoViewsRequest(cid: call, views: views))

        XCTAssertEqual(notJoined.code, .notInCall)
        XCTAssertEqual(notAMember.code, .privateCall)
        try await alice.barrier()
        let seen = await alice.receivedEvents(.videoViewsUpdated)
        XCTAssertEqual(seen, [])
    }

    /// Given alice and bob in a call, when bob sends `views(alicesSession)`, then he gets
    /// `invalidRequest` naming the problem, and the first update alice hears is the valid one he
    /// sends next.
    private func assertRefusedAsInvalid(
        views: (String) -> [VideoView], naming problem: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let (alice, bob, call) = try await callWithAliceAndBobIn()
        let alicesSession = try await alice.send(JoinCallRequest(cid: call)).sessionId
        let valid = [VideoView(sessionId: alicesSession, width: 1280, height: 720)]

        let refused = try await bob.sendExpectingError(UpdateVideoViewsRequest(cid: call, views: views(alicesSession)))
        _ = try await bob.send(UpdateVideoViewsRequest(cid: call, views: valid))

        XCTAssertEqual(refused.code, .invalidRequest, file: file, line: line)
        XCTAssertTrue(refused.message.contains(problem), refused.message, file: file, line: line)
        let first = try await alice.nextEvent(.videoViewsUpdated).videoViews
        XCTAssertEqual(first?.views, valid, "the refused views were not relayed", file: file, line: line)
    }
}
