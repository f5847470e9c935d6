@testable import ConfabCore
import Foundation
import XCTest

/// The waiting room (issue 18) in the core: the lobby waits for a host's answer to our knock,
/// and a host's call lists knockers, lets them in or turns them away. And what wants the user's
/// attention outside the window (a new message, a knock).
final class WaitingRoom_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")

    /// The view model is held only weakly by the service: kept here for the test's length.
    private nonisolated(unsafe) var viewModel: CallViewModel?

    @MainActor private func run(_ action: @escaping @MainActor () async -> Void) {
        var done = false
        Task { await action(); done = true }
        waitUntil { done }
    }

    @MainActor private func admission(of subject: CallViewModel) -> LobbyAdmission? {
        if case .lobby(let info) = subject.callingState { info.admission } else { nil }
    }

    /// ada in the lobby of `standup`, after pressing Join; the coordinator answers `answer`.
    @MainActor private func knockingFromLobby(answer: JoinAttempt = .waitingForHost) -> (CallViewModel, FakeCallService) {
        let service = FakeCallService()
        service.knockAnswers = [answer]
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        viewModel = subject
        subject.enterLobby(standup, members: [])
        run { await subject.joinCall(self.standup) }
        return (subject, service)
    }

    // MARK: Knocking (the lobby)

    func test_joinThatKnocks_staysInTheLobby_waiting_withNoCall() { onMain {
        let (subject, service) = knockingFromLobby()
        XCTAssertEqual(admission(of: subject), .waitingForHost)
        XCTAssertNil(subject.activeCall, "a knock is not a call yet")
        XCTAssertTrue(service.joined.isEmpty)
    } }

    func test_admitted_joinsAtOnce() { onMain {
        let (subject, service) = knockingFromLobby()
        service.send(.joinAnswered(standup, admitted: true))
        waitUntil { subject.callingState == .inCall }
        XCTAssertEqual(subject.callingState, .inCall)
        XCTAssertEqual(service.joined.map(\.0), [standup])
    } }

    func test_denied_lobbySaysSo_andDoesNotJoin() { onMain {
        let (subject, service) = knockingFromLobby()
        service.send(.joinAnswered(standup, admitted: false))
        XCTAssertEqual(admission(of: subject), .denied)
        XCTAssertEqual(subject.toast?.message, "The host didn’t let you in.")
        XCTAssertTrue(service.joined.isEmpty)
    } }

    func test_deniedBeforeKnocking_lobbySaysSoAtOnce() { onMain {
        let (subject, _) = knockingFromLobby(answer: .denied)
        XCTAssertEqual(admission(of: subject), .denied)
        XCTAssertEqual(subject.toast?.message, "The host didn’t let you in.")
    } }

    func test_anAnswerForAnotherCall_orWhenNotWaiting_changesNothing() { onMain {
        let (subject, service) = knockingFromLobby()
        service.send(.joinAnswered(CallID(type: .default, id: "other"), admitted: true))
        XCTAssertEqual(admission(of: subject), .waitingForHost)
        subject.stopWaitingForHost()
        service.send(.joinAnswered(standup, admitted: true))
        XCTAssertEqual(admission(of: subject), .notAsked)
        XCTAssertTrue(service.joined.isEmpty, "joined after the user stopped waiting")
    } }

    func test_stopWaiting_orClosingTheLobby_withdrawsTheKnock() { onMain {
        let (subject, service) = knockingFromLobby()
        subject.stopWaitingForHost()
        waitUntil { service.requests.contains("leave default:standup") }
        XCTAssertEqual(admission(of: subject), .notAsked)
        XCTAssertTrue(service.requests.contains("leave default:standup"))

        let (closing, closingService) = knockingFromLobby()
        closing.closeLobby()
        waitUntil { closingService.requests.contains("leave default:standup") }
        XCTAssertEqual(closing.callingState, .idle)
        XCTAssertTrue(closingService.requests.contains("leave default:standup"))
    } }

    func test_connectionBack_whileWaiting_knocksAgain() { onMain {
        let (subject, service) = knockingFromLobby()
        service.knockAnswers = [.waitingForHost]
        service.send(.connectionLost)
        service.send(.connectionRestored)
        waitUntil { service.requests.filter { $0 == "knock default:standup" }.count == 2 }
        XCTAssertEqual(service.requests.filter { $0 == "knock default:standup" }.count, 2, "the knock died with the old connection")
        waitUntil { self.admission(of: subject) == .waitingForHost }
        XCTAssertEqual(admission(of: subject), .waitingForHost)
    } }

    // MARK: Hosting (the call)

    @MainActor private func hosting() -> (CallViewModel, FakeCallService, ActiveCall) {
        let service = FakeCallService()
        service.capabilitiesOnJoin = [.admitParticipants, .updateCall, .sendChat]
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        viewModel = subject
        run { await subject.startCall(self.standup, members: [], ring: false) }
        waitUntil { subject.callingState == .inCall }
        guard let call = subject.activeCall else { fatalError("joined without a call") }
        return (subject, service, call)
    }

    private func knock(_ userID: String, at seconds: TimeInterval) -> CallKnock {
        CallKnock(userId: userID, knockedAt: Date(timeIntervalSince1970: seconds))
    }

    func test_knocks_areListedInOrder_saidOnce_andWantAttention() { onMain {
        let (subject, service, call) = hosting()
        var attention: [AttentionNeeded] = []
        call.onAttentionNeeded = { attention.append($0) }
        service.send(.knocked(standup, knock("eve", at: 1)))
        XCTAssertEqual(subject.toast?.message, "eve asks to join")
        service.send(.knocked(standup, knock("mallory", at: 2)))
        service.send(.knocked(standup, knock("eve", at: 1)))
        XCTAssertEqual(call.knocks.map(\.userId), ["eve", "mallory"])
        XCTAssertEqual(attention, [.knock(name: "eve"), .knock(name: "mallory")])
    } }

    func test_admit_takesTheKnockOff_andKeepsTheOthers() { onMain {
        let (_, service, call) = hosting()
        service.knocksWaiting = [knock("eve", at: 1), knock("mallory", at: 2)]
        service.send(.knocked(standup, service.knocksWaiting[0]))
        service.send(.knocked(standup, service.knocksWaiting[1]))
        run { await call.admit(call.knocks[0]) }
        XCTAssertTrue(service.requests.contains("admit eve"))
        XCTAssertEqual(call.knocks.map(\.userId), ["mallory"])
    } }

    func test_deny_isSaid_andTheKnockGoes() { onMain {
        let (subject, service, call) = hosting()
        service.knocksWaiting = [knock("mallory", at: 2)]
        service.send(.knocked(standup, service.knocksWaiting[0]))
        run { await call.deny(call.knocks[0]) }
        XCTAssertTrue(service.requests.contains("deny mallory"))
        XCTAssertTrue(call.knocks.isEmpty)
        XCTAssertEqual(subject.toast?.message, "You didn’t let mallory in")
    } }

    func test_anotherHostsAnswer_isSaid_aWithdrawalIsNot() { onMain {
        let (subject, service, call) = hosting()
        service.send(.knocked(standup, knock("eve", at: 1)))
        service.send(.knocked(standup, knock("mallory", at: 2)))
        service.send(.knockResolved(standup, userID: "eve", outcome: .admitted, byUserID: "bob"))
        XCTAssertEqual(subject.toast?.message, "bob let eve in")
        service.send(.knockResolved(standup, userID: "mallory", outcome: .withdrawn, byUserID: nil))
        XCTAssertEqual(subject.toast?.message, "bob let eve in", "a withdrawal was announced")
        XCTAssertTrue(call.knocks.isEmpty)
    } }

    func test_askToJoin_followsTheServersAnswer() { onMain {
        let (_, service, call) = hosting()
        XCTAssertFalse(call.asksToJoin)
        run { await call.setAsksToJoin(true) }
        XCTAssertTrue(service.requests.contains("ask to join true"))
        XCTAssertTrue(call.asksToJoin)
    } }

    // MARK: Attention

    func test_chatFromOthers_wantsAttention_ourOwnAndRepeatsDoNot() { onMain {
        let (_, service, call) = hosting()
        var attention: [AttentionNeeded] = []
        call.onAttentionNeeded = { attention.append($0) }
        let fromBob = ChatMessage(id: 5, cid: standup, userId: "bob", sessionId: "s-bob", text: "hi", createdAt: Date())
        service.send(.chatMessage(fromBob))
        service.send(.chatMessage(fromBob))
        service.send(.chatMessage(ChatMessage(id: 6, cid: standup, userId: "ada", sessionId: "s-other", text: "mine", createdAt: Date())))
        XCTAssertEqual(attention, [.chatMessage(from: "bob", text: "hi")])
    } }
}
