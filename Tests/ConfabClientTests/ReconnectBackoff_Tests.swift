import ConfabClient
import XCTest

final class ReconnectBackoff_Tests: XCTestCase {
    func test_failures_delay_doublesFromInitialUpToMaximum() {
        let backoff = ReconnectBackoff(initial: .milliseconds(250), maximum: .seconds(2), jitter: 0)
        XCTAssertEqual((0...6).map { backoff.delay(afterFailures: $0) },
                       [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2), .seconds(2)])
    }

    func test_jitter_delay_addsAtMostThatFraction() {
        let backoff = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(1), jitter: 0.2)
        XCTAssertEqual(backoff.delay(afterFailures: 0, random: 0), .seconds(1))
        XCTAssertEqual(backoff.delay(afterFailures: 0, random: 1), .milliseconds(1200))
        XCTAssertEqual(backoff.delay(afterFailures: 1000, random: 5), .milliseconds(1200))
    }
}
