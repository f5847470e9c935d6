@testable import ConfabCore
import ConfabTestSupport
import Foundation
import XCTest

/// The call's link (issue 16): whoever may read the call is given its secret — in the lobby and
/// in the call — to share it; a host can replace it, and keeps the old one when refused.
final class CallLinkSecret_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")

    @MainActor private func run(_ action: @escaping @MainActor () async -> Void) {
        var done = false
        Task { await action(); done = true }
        waitUntil { done }
    }

    func test_lobby_callReadWithItsSecret_lobbyHasTheSecret() { onMain {
        let service = FakeCallService()
        service.linkSecret = "0123456789abcdef0123456789abcdef"
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        subject.enterLobby(standup, members: [])
        waitUntil { if case .lobby(let info) = subject.callingState { return info.linkSecret != nil } else { return false } }
        guard case .lobby(let info) = subject.callingState else { return XCTFail("not in the lobby") }
        XCTAssertEqual(info.linkSecret, "0123456789abcdef0123456789abcdef")
    } }

    func test_lobby_secretNotShownToUs_lobbyHasNone() { onMain {
        let service = FakeCallService()
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        subject.enterLobby(standup, members: [])
        waitUntil { service.requests.contains("get \(self.standup)") }
        settle()
        guard case .lobby(let info) = subject.callingState else { return XCTFail("not in the lobby") }
        XCTAssertNil(info.linkSecret)
    } }

    func test_joined_theCallHasItsSecret() { onMain {
        let service = FakeCallService()
        service.linkSecret = "s-1"
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        run { await subject.startCall(self.standup, members: [], ring: false) }
        XCTAssertEqual(subject.activeCall?.linkSecret, "s-1")
        XCTAssertFalse(subject.activeCall?.canResetLink ?? true, "only hosts (updateCall) may reset the link")
    } }

    func test_resetLink_byAHost_theCallHasTheNewSecret_andTheUserIsTold() { onMain {
        let service = FakeCallService()
        service.linkSecret = "s-old"
        service.linkSecretAfterReset = "s-new"
        service.capabilitiesOnJoin = [.updateCall]
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        run { await subject.startCall(self.standup, members: [], ring: false) }
        XCTAssertTrue(subject.activeCall?.canResetLink ?? false)

        run { await subject.activeCall?.resetLink() }
        XCTAssertEqual(subject.activeCall?.linkSecret, "s-new")
        XCTAssertEqual(subject.toast?.message, "The call has a new link. The old one no longer works.")
    } }

    func test_resetLink_refused_keepsTheOldSecret_andSaysWhy() { onMain {
        let service = FakeCallService()
        service.linkSecret = "s-old"
        service.capabilitiesOnJoin = [.updateCall]
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        run { await subject.startCall(self.standup, members: [], ring: false) }

        run { await subject.activeCall?.resetLink() }
        XCTAssertEqual(subject.activeCall?.linkSecret, "s-old")
        XCTAssertEqual(subject.toast?.message.hasPrefix("Couldn’t reset the call’s link"), true, subject.toast?.message ?? "no message")
    } }
}
