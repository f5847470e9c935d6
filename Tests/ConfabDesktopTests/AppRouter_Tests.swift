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
                        current: AppRouter.Screen? = nil) -> AppRouter.Screen {
        MainActor.assumeIsolated {
            AppRouter.screen(for: state, activeCall: call, isMinimized: minimized, ended: ended, current: current)
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

    func test_inCallAndReconnecting_areTheCallWindow_orTheMinimizedOne() {
        for state in [CallingState.inCall, .reconnecting] {
            XCTAssertEqual(screen(state, call: standup), .call(standup))
            XCTAssertEqual(screen(state, call: standup, minimized: true), .minimized(standup))
            XCTAssertEqual(screen(state), .home, "no call to show")
        }
    }
}
