@testable import ConfabCore
import XCTest

final class MicrophoneChecker_Tests: XCTestCase {
    func test_noReadingsYet_hasDecibelValues() { onMain {
        XCTAssertTrue(MicrophoneChecker(valueLimit: 3).hasDecibelValues)
    } }

    func test_fullWindowOfSilence_isSilent() { onMain {
        let subject = MicrophoneChecker(valueLimit: 3, silenceThreshold: -80)
        [-90, -.infinity, -100].forEach(subject.record(decibels:))
        XCTAssertFalse(subject.hasDecibelValues)
        XCTAssertTrue(subject.isSilent)
    } }

    func test_partialWindowOfSilence_notYetSilent() { onMain {
        let subject = MicrophoneChecker(valueLimit: 3, silenceThreshold: -80)
        [-90, -90].forEach(subject.record(decibels:))
        XCTAssertTrue(subject.hasDecibelValues)
    } }

    func test_oneAudibleReadingInWindow_hasDecibelValues() { onMain {
        let subject = MicrophoneChecker(valueLimit: 3, silenceThreshold: -80)
        [-90, -40, -90].forEach(subject.record(decibels:))
        XCTAssertTrue(subject.hasDecibelValues)
    } }

    func test_soundThenLongSilence_becomesSilentOnceWindowSlides() { onMain {
        let subject = MicrophoneChecker(valueLimit: 3, silenceThreshold: -80)
        [-20, -95, -95].forEach(subject.record(decibels:))
        XCTAssertTrue(subject.hasDecibelValues)
        subject.record(decibels: -95)
        XCTAssertFalse(subject.hasDecibelValues)
        XCTAssertEqual(subject.decibels.count, 3)
    } }

    func test_reset_forgetsHistory() { onMain {
        let subject = MicrophoneChecker(valueLimit: 2)
        [-100, -100].forEach(subject.record(decibels:))
        subject.reset()
        XCTAssertTrue(subject.hasDecibelValues)
        XCTAssertEqual(subject.decibels, [])
    } }

    func test_meterLevel_mapsDecibelsToUnitRange() { onMain {
        let subject = MicrophoneChecker()
        XCTAssertEqual(subject.meterLevel, 0)
        subject.record(decibels: -30); XCTAssertEqual(subject.meterLevel, 0.5, accuracy: 0.001)
        subject.record(decibels: 0); XCTAssertEqual(subject.meterLevel, 1)
        subject.record(decibels: -120); XCTAssertEqual(subject.meterLevel, 0)
        subject.record(decibels: .nan); XCTAssertEqual(subject.meterLevel, 0)
    } }
}

final class ConnectionQuality_Tests: XCTestCase {
    func test_unreachable_isPoor() {
        XCTAssertEqual(ConnectionQuality(roundTripTime: nil), .poor)
        XCTAssertTrue(ConnectionQuality.poor.needsAttention)
    }

    func test_thresholds() {
        XCTAssertEqual(ConnectionQuality(roundTripTime: .milliseconds(1)), .excellent)
        XCTAssertEqual(ConnectionQuality(roundTripTime: .milliseconds(99)), .excellent)
        XCTAssertEqual(ConnectionQuality(roundTripTime: .milliseconds(100)), .good)
        XCTAssertEqual(ConnectionQuality(roundTripTime: .milliseconds(299)), .good)
        XCTAssertEqual(ConnectionQuality(roundTripTime: .milliseconds(300)), .poor)
        XCTAssertEqual(ConnectionQuality(roundTripTime: .seconds(2)), .poor)
    }

    func test_onlyPoorNeedsAttention() {
        XCTAssertEqual(ConnectionQuality.allCases.filter(\.needsAttention), [.poor])
        XCTAssertEqual(ConnectionQuality.allCases.map(\.bars), [0, 1, 2, 3])
    }
}
