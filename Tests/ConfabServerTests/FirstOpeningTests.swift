@testable import ConfabServer
import XCTest

/// The first WebSocket to Janus is opened alone (a server with two nodes crashed in Swift's
/// runtime when both were first opened at once, `JanusSignallingClient.firstOpening`).
final class FirstOpeningTests: XCTestCase {
    func test_onlyTheFirstLeads_andAfterItLeftEveryonePasses() async {
        let gate = FirstOpening()
        let first = await gate.enter()
        XCTAssertTrue(first)
        let second = Task { await gate.enter() }
        await gate.leave()
        let secondLeads = await second.value
        XCTAssertFalse(secondLeads, "only one caller is the first")
        let later = await gate.enter()
        XCTAssertFalse(later, "after the first, everyone passes and nobody leads")
    }

    func test_theSecondDoesNotPassBeforeTheFirstLeaves() async {
        let gate = FirstOpening()
        _ = await gate.enter()
        let passed = ManagedFlag()
        let second = Task {
            _ = await gate.enter()
            await passed.set()
        }
        try? await Task.sleep(for: .milliseconds(300))
        let early = await passed.value
        XCTAssertFalse(early, "the second went on while the first was still opening")
        await gate.leave()
        await second.value
        let after = await passed.value
        XCTAssertTrue(after)
    }
}

private actor ManagedFlag {
    private(set) var value = false
    func set() { value = true }
}
