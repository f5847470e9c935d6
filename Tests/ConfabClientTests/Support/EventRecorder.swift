import ConfabTestSupport
import ConfabClient
import ConfabCore
import Foundation
import XCTest

/// Collects what a client delivers so a test can await one event with a deadline.
@MainActor
final class EventRecorder {
    private(set) var events: [CallServiceEvent] = []
    private var taken = 0

    init(_ client: CoordinatorClient) {
        client.setEventHandler { [weak self] event in self?.events.append(event) }
    }

    /// The next event, after the last one taken, for which `matches` holds; fails at the deadline.
    @discardableResult
    func next(_ description: String, timeout: Duration = .seconds(5),
              file: StaticString = #filePath, line: UInt = #line,
              where matches: (CallServiceEvent) -> Bool) async throws -> CallServiceEvent {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = events.indices.dropFirst(taken).first(where: { matches(events[$0]) }) {
                taken = index + 1
                return events[index]
            }
            guard ContinuousClock.now < deadline else {
                XCTFail("no \(description) within \(timeout); got \(events)", file: file, line: line)
                throw TestFailure("no \(description)")
            }
            // Events arrive on the main actor; polling lets them in between checks.
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
