@testable import ConfabCore
import Foundation
import XCTest

/// Chat, reactions and raised hands on the per-call owner (issue 18).
final class ActiveCallConversation_Tests: XCTestCase {
    private let standup = CallID(type: .default, id: "standup")
    private let bob = User(id: "bob", name: "Bob")
    private let cy = User(id: "cy", name: "Cy")

    @MainActor private func run(_ action: @escaping @MainActor () async -> Void) {
        var done = false
        Task { await action(); done = true }
        waitUntil { done }
    }

    @MainActor private func participant(_ user: User) -> CallParticipant {
        CallParticipant(user: user, sessionID: "s-\(user.id)", role: "user", joinedAt: Date(timeIntervalSince1970: 1000))
    }

    private func message(_ id: Int64, from userID: String, _ text: String) -> ChatMessage {
        ChatMessage(id: id, cid: standup, userId: userID, sessionId: "s-\(userID)", text: text, createdAt: Date(timeIntervalSince1970: 2000))
    }

    /// The view model routes the service's events to the call and is held only weakly by the
    /// service: kept here for the test's length, or events sent to a discarded one go nowhere.
    private nonisolated(unsafe) var viewModel: CallViewModel?

    @MainActor private func inCall(_ prepare: (FakeCallService) -> Void = { _ in }) -> (CallViewModel, FakeCallService, ActiveCall) {
        let service = FakeCallService()
        service.participantsOnJoin = [participant(User(id: "ada")), participant(bob), participant(cy)]
        service.participantsOnJoin[0].sessionID = "s-self"
        service.ownSessionOnJoin = "s-self"
        service.capabilitiesOnJoin = [.sendChat, .sendReaction, .raiseHand]
        prepare(service)
        let subject = CallViewModel(currentUser: User(id: "ada"), callService: service)
        run { await subject.startCall(self.standup, members: [], ring: false) }
        waitUntil { subject.callingState == .inCall }
        guard let call = subject.activeCall else { fatalError("joined without a call") }
        viewModel = subject
        return (subject, service, call)
    }

    // MARK: Chat

    func test_joining_loadsTheStoredHistory_withoutCountingItUnread() { onMain {
        let (_, _, call) = inCall { $0.chatStored = [self.message(1, from: "bob", "earlier")] }
        waitUntil { call.chatMessages.count == 1 }
        XCTAssertEqual(call.chatMessages.map(\.text), ["earlier"])
        XCTAssertEqual(call.unreadChatCount, 0)
    } }

    func test_messageFromOthers_whileChatHidden_countsUnread_untilShown() { onMain {
        let (_, service, call) = inCall()
        service.send(.chatMessage(message(7, from: "bob", "hi")))
        service.send(.chatMessage(message(8, from: "cy", "hello")))
        XCTAssertEqual(call.unreadChatCount, 2)

        call.isChatShown = true
        XCTAssertEqual(call.unreadChatCount, 0)
        service.send(.chatMessage(message(9, from: "bob", "seen")))
        XCTAssertEqual(call.unreadChatCount, 0, "read as it arrives while the pane is shown")
        XCTAssertEqual(call.chatMessages.map(\.id), [7, 8, 9])
        XCTAssertEqual(call.chatMessages.first.map(call.senderName(of:)), "Bob")
    } }

    func test_sendingChat_showsItOnce_evenWhenItsEventFollows() { onMain {
        let (_, service, call) = inCall()
        var sent = false
        run { sent = await call.sendChat("  lunch?\n") }
        XCTAssertTrue(sent)
        XCTAssertEqual(service.requests.last, "chat lunch?")
        service.send(.chatMessage(service.chatStored[0]))
        XCTAssertEqual(call.chatMessages.map(\.text), ["lunch?"])
        XCTAssertEqual(call.unreadChatCount, 0, "our own message is not unread")
    } }

    func test_messageOverTheLimit_isRefusedBeforeSending_withTheReason() { onMain {
        let (subject, service, call) = inCall()
        var sent = true
        run { sent = await call.sendChat(String(repeating: "é", count: 2049)) }
        XCTAssertFalse(sent)
        XCTAssertFalse(service.requests.contains { $0.hasPrefix("chat ") && !$0.hasPrefix("chat history") })
        XCTAssertTrue(subject.toast?.message.contains("too long") ?? false)
    } }

    func test_messageForAnotherCall_isNotShown() { onMain {
        let (_, service, call) = inCall()
        var other = message(3, from: "bob", "elsewhere")
        other.cid = CallID(type: .default, id: "retro")
        service.send(.chatMessage(other))
        XCTAssertTrue(call.chatMessages.isEmpty)
    } }

    // MARK: Reactions

    func test_reaction_showsOverTheSendersSession_thenGoes() { onMain {
        let (_, service, call) = inCall()
        call.reactionLifetime = .milliseconds(200)
        service.send(.reaction(standup, sessionID: "s-bob", .party))
        XCTAssertEqual(call.reactions, ["s-bob": .party])
        waitUntil { call.reactions.isEmpty }
    } }

    func test_endingTheCall_dropsReactionsAndTheirTimers() { onMain {
        let (subject, service, call) = inCall()
        service.send(.reaction(standup, sessionID: "s-bob", .heart))
        run { await subject.hangUp() }
        XCTAssertTrue(call.reactions.isEmpty)
        XCTAssertTrue(call.isEnded)
    } }

    // MARK: Raised hands

    func test_raisedHands_areListedInRaisingOrder() { onMain {
        let (_, service, call) = inCall()
        service.send(.handChanged(standup, sessionID: "s-cy", hand: RaisedHand(raisedAt: Date(), order: 2), byUserID: "cy"))
        service.send(.handChanged(standup, sessionID: "s-bob", hand: RaisedHand(raisedAt: Date(), order: 1), byUserID: "bob"))
        XCTAssertEqual(call.raisedHands.map(\.user.id), ["bob", "cy"])

        service.send(.handChanged(standup, sessionID: "s-bob", hand: nil, byUserID: "bob"))
        XCTAssertEqual(call.raisedHands.map(\.user.id), ["cy"])
    } }

    func test_toggleOwnHand_raisesThenLowersIt() { onMain {
        let (_, service, call) = inCall()
        run { await call.toggleOwnHand() }
        XCTAssertTrue(call.isOwnHandRaised)
        run { await call.toggleOwnHand() }
        XCTAssertFalse(call.isOwnHandRaised)
        XCTAssertEqual(service.requests.suffix(2), ["raise hand", "lower hand own"])
    } }

    func test_hostLoweringOurHand_isSaid() { onMain {
        let (subject, service, call) = inCall()
        run { await call.toggleOwnHand() }
        service.send(.handChanged(standup, sessionID: "s-self", hand: nil, byUserID: "bob"))
        XCTAssertFalse(call.isOwnHandRaised)
        XCTAssertEqual(subject.toast?.message, "Bob lowered your hand")
    } }

    func test_hostLowersSomeoneElsesHand() { onMain {
        let (_, service, call) = inCall { $0.capabilitiesOnJoin.insert(.muteUsers) }
        service.handsRaised["s-bob"] = RaisedHand(raisedAt: Date(), order: 1)
        service.send(.handChanged(standup, sessionID: "s-bob", hand: service.handsRaised["s-bob"], byUserID: "bob"))
        XCTAssertTrue(call.canLowerOthersHands)
        guard let bobInCall = call.participants["s-bob"] else { return XCTFail("bob is in the call") }
        run { await call.lowerHand(of: bobInCall) }
        XCTAssertEqual(service.requests.last, "lower hand bob")
        XCTAssertTrue(call.raisedHands.isEmpty)
    } }
}
