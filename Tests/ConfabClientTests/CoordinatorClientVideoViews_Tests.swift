import ConfabTestSupport
import ConfabClient
import ConfabCore
import ConfabProtocol
import Foundation
import XCTest

/// `updateVideoViews` (issue 15) against the real `confab-server` binary: what one device shows
/// reaches the other devices in the call as that device's `videoViews`.
final class CoordinatorClientVideoViews_Tests: XCTestCase {
    private var servers: [ServerProcess] = []
    private let call = CallID(type: .default, id: "client-video-views")

    override func tearDown() async throws {
        for server in servers { server.stop() }
        servers.removeAll()
    }

    @MainActor
    private func client(_ user: String, on server: ServerProcess) async throws -> (CoordinatorClient, EventRecorder) {
        let client = CoordinatorClient.forTests(user, on: server)
        let recorder = EventRecorder(client)
        try await client.connect()
        return (client, recorder)
    }

    func test_updateVideoViews_reachesTheOthers_asTheViewersViews_sentInSessionOrder() async throws {
        let server = try await ServerProcess.start()
        servers.append(server)
        try await onMain { [self, call] in
            let (alice, alicesEvents) = try await client("alice", on: server)
            let (bob, _) = try await client("bob", on: server)
            var alicesWire: [VideoViewsEvent] = []
            // Seen before the event is translated: there once the translated one is.
            alice.setServerEventObserver { if case .videoViewsUpdated(let update) = $0 { alicesWire.append(update) } }
            _ = try await alice.getOrCreateCall(call, memberIDs: ["bob"], ring: false, video: true)
            let alicesSession = try await alice.joinCall(call, create: false).ownSessionID ?? "none"
            let bobsSession = try await bob.joinCall(call, create: false).ownSessionID
            // Enough cameras that a dictionary's own order is almost never the sorted one.
            var views = Dictionary(uniqueKeysWithValues: (1...9).map { ("cam-\($0)", VideoSize(width: 160 + $0 * 16, height: 90 + $0 * 9)) })
            views[alicesSession] = VideoSize(width: 430, height: 242)

            try await bob.updateVideoViews(views, in: call)

            let heard = try await alicesEvents.next("bob's views") { if case .videoViews = $0 { true } else { false } }
            XCTAssertEqual(heard, .videoViews(call, viewerSessionID: bobsSession ?? "none", views: views))
            XCTAssertEqual(alicesWire.first?.views.map(\.sessionId), views.keys.sorted(), "the same views always read the same on the wire")
            await alice.disconnect()
            await bob.disconnect()
        }
    }
}
