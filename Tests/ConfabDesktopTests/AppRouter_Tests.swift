@testable import ConfabCore
@testable import ConfabDesktop
import Foundation
import XCTest

/// `callingState` (with the active call, minimized and the ended call) decides the one screen.
final class AppRouter_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private let lobby = LobbyInfo(callId: "standup", callType: .default, participants: [])
    private let ring = IncomingCall(id: "standup", caller: User(id: "bob"), type: .default, members: [], timeout: .seconds(30), video: true)

    private func screen(_ state: CallingState, call: CallID? = nil, minimized: Bool = false, ended: EndedCall? = nil,
                        current: AppRouter.Screen? = nil, waitsForMedia: Bool = false) -> AppRouter.Screen {
        MainActor.assumeIsolated {
            AppRouter.screen(for: state, activeCall: call, isMinimized: minimized, ended: ended, current: current,
                             waitsForMedia: waitsForMedia)
        }
    }

    func test_idle_isHome_orTheEndedPageAfterACall() {
        XCTAssertEqual(screen(.idle), .home)
        XCTAssertEqual(screen(.idle, ended: EndedCall(call: standup, reason: "Bob hung up")), .ended)
    }

    func test_lobby_isTheLobbyOfItsCall() {
        XCTAssertEqual(screen(.lobby(lobby)), .lobby(standup))
    }

    func test_incoming_isTheIncomingScreenOfTheRingingCall() {
        XCTAssertEqual(screen(.incoming(ring)), .incoming(standup))
    }

    func test_outgoing_isTheOutgoingScreen_orHomeWithoutACall() {
        XCTAssertEqual(screen(.outgoing, call: standup), .outgoing(standup))
        XCTAssertEqual(screen(.outgoing), .home)
    }

    func test_joining_fromTheLobby_keepsTheLobby_otherwiseTheCallWindow() {
        XCTAssertEqual(screen(.joining, call: standup, current: .lobby(standup)), .lobby(standup))
        XCTAssertEqual(screen(.joining, call: standup, current: .incoming(standup)), .call(standup))
        XCTAssertEqual(screen(.joining, call: standup, current: .lobby(CallID(type: .default, id: "other"))), .call(standup))
        XCTAssertEqual(screen(.joining), .home)
    }

    /// Joined from the lobby, the call page waits for the media's signalling (its first layout
    /// and paint held every step of it up): the lobby stays, for that call only.
    func test_inCall_joinedFromTheLobby_keepsTheLobbyWhileTheMediaSignals() {
        XCTAssertEqual(screen(.inCall, call: standup, current: .lobby(standup), waitsForMedia: true), .lobby(standup))
        XCTAssertEqual(screen(.inCall, call: standup, current: .lobby(standup), waitsForMedia: false), .call(standup))
        XCTAssertEqual(screen(.inCall, call: standup, current: .incoming(standup), waitsForMedia: true), .call(standup),
                       "an answered ring has no lobby to keep")
        XCTAssertEqual(screen(.inCall, call: standup, current: .lobby(CallID(type: .default, id: "other")), waitsForMedia: true),
                       .call(standup))
        XCTAssertEqual(screen(.inCall, call: standup, current: .call(standup), waitsForMedia: true), .call(standup),
                       "a call on screen goes back to no lobby")
    }

    func test_inCallAndReconnecting_areTheCallWindow_orTheMinimizedOne() {
        for state in [CallingState.inCall, .reconnecting] {
            XCTAssertEqual(screen(state, call: standup), .call(standup))
            XCTAssertEqual(screen(state, call: standup, minimized: true), .minimized(standup))
            XCTAssertEqual(screen(state), .home, "no call to show")
        }
    }
}
