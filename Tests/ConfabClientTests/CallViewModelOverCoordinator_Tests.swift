import ConfabTestSupport
import ConfabClient
import ConfabCore
import Foundation
import Logging
import XCTest

/// The app's CallViewModel (headless) over real CoordinatorClients and the real server
/// process: the ring rules as the app's screens would see them, on both sides.
final class CallViewModelOverCoordinator_Tests: XCTestCase {
    private var server: ServerProcess?
    private var clients: [CoordinatorClient] = []

    override func tearDown() async throws {
        for client in clients { await client.disconnect() }
        clients.removeAll()
        server?.stop()
    }

    @MainActor
    private func signIn(_ user: String, on server: ServerProcess) async throws -> CallViewModel {
        var options = CoordinatorClient.Options()
        options.reconnectBackoff = ReconnectBackoff(initial: .milliseconds(100), maximum: .milliseconds(500))
        var logger = Logger(label: "view-model-tests")
        logger.logLevel = .error
        let client = CoordinatorClient(serverURL: server.baseURL, userID: user, options: options, logger: logger)
        let viewModel = CallViewModel(currentUser: User(id: user), callService: client)
        try await client.connect()
        clients.append(client)
        return viewModel
    }

    /// Waits until the view model is in `state` (polling: observation gives no awaitable event here).
    @MainActor
    private func waitFor(_ viewModel: CallViewModel, _ state: String, timeout: Duration = .seconds(5),
                         file: StaticString = #filePath, line: UInt = #line) async throws {
        let deadline = ContinuousClock.now + timeout
        while viewModel.callingState.name != state {
            guard ContinuousClock.now < deadline else {
                XCTFail("\(viewModel.currentUser.id) is \(viewModel.callingState.name), not \(state)", file: file, line: line)
                throw TestFailure("state \(state) never came")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func test_aliceCallsBob_bobAccepts_bothAreInCallWithEachOther() async throws {
        let server = try await ServerProcess.start(["--ring-timeout", "20"])
        self.server = server
        try await onMain { [self] in
            let alice = try await signIn("alice", on: server)
            let bob = try await signIn("bob", on: server)
            await alice.startCall(CallID(type: .default, id: "vm-accept"), members: ["bob"])
            XCTAssertEqual(alice.callingState, .outgoing)
            try await waitFor(bob, "incoming")
            guard case .incoming(let incoming) = bob.callingState else { return XCTFail() }
            XCTAssertEqual(incoming.caller.id, "alice")

            await bob.acceptCall(CallID(type: .default, id: "vm-accept"))
            try await waitFor(bob, "inCall")
            try await waitFor(alice, "inCall")
            let deadline = ContinuousClock.now + .seconds(5)
            while Set((alice.activeCall?.participants ?? [:]).values.map(\.user.id)) != ["alice", "bob"], ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            XCTAssertEqual(Set((alice.activeCall?.participants ?? [:]).values.map(\.user.id)), ["alice", "bob"])
        }
    }

    func test_aliceCallsBob_bobDeclines_aliceIsBackToIdleToldBobDeclined() async throws {
        let server = try await ServerProcess.start(["--ring-timeout", "20"])
        self.server = server
        try await onMain { [self] in
            let alice = try await signIn("alice", on: server)
            let bob = try await signIn("bob", on: server)
            await alice.startCall(CallID(type: .default, id: "vm-decline"), members: ["bob"])
            try await waitFor(bob, "incoming")
            await bob.rejectCall(CallID(type: .default, id: "vm-decline"))
            XCTAssertEqual(bob.callingState, .idle)
            try await waitFor(alice, "idle")
            XCTAssertEqual(alice.endedCall?.reason, "bob declined")
        }
    }

    func test_bobOnTwoDevices_acceptsOnTheLaptop_thePhoneStopsRinging() async throws {
        let server = try await ServerProcess.start(["--ring-timeout", "20"])
        self.server = server
        try await onMain { [self] in
            let alice = try await signIn("alice", on: server)
            let laptop = try await signIn("bob", on: server)
            let phone = try await signIn("bob", on: server)
            await alice.startCall(CallID(type: .default, id: "vm-elsewhere"), members: ["bob"])
            try await waitFor(laptop, "incoming")
            try await waitFor(phone, "incoming")
            await laptop.acceptCall(CallID(type: .default, id: "vm-elsewhere"))
            try await waitFor(phone, "idle")
            XCTAssertEqual(phone.endedCall?.reason, "Answered on another device")
            try await waitFor(laptop, "inCall")
            try await waitFor(alice, "inCall")
        }
    }

    func test_inCall_serverRestarts_reconnectingThenBackInTheCall() async throws {
        let server = try await ServerProcess.start()
        self.server = server
        try await onMain { [self] in
            let alice = try await signIn("alice", on: server)
            await alice.startCall(CallID(type: .default, id: "vm-reconnect"), members: [], ring: false)
            try await waitFor(alice, "inCall")
            server.kill()
            try await waitFor(alice, "reconnecting")
            try await server.restart()
            try await waitFor(alice, "inCall", timeout: .seconds(10))
        }
    }
}
