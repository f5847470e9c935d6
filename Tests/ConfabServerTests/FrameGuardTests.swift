import ConfabProtocol
import XCTest

/// The scan every untrusted frame passes before a JSON parser sees it.
final class FrameGuardTests: XCTestCase {
    private let limits = FrameGuard.Limits(maxBytes: 1024, maxDepth: 4)

    func test_frameWithinLimits_passes() throws {
        try FrameGuard.check(#"{"a":[{"b":[1]}]}"#, limits: limits)
    }

    func test_frameOneLevelTooDeep_isRefusedAtTheByteThatWentTooDeep() {
        XCTAssertThrowsError(try FrameGuard.check(#"{"a":[{"b":[[1]]}]}"#, limits: limits)) { error in
            XCTAssertEqual(error as? FrameGuard.Refusal, .tooDeep(limit: 4, offset: 12))
        }
    }

    func test_bracketsInsideStrings_doNotCount_evenAfterEscapedQuotes() throws {
        try FrameGuard.check(#"{"a":"[[[[[[\"[[[[{{{{","b":"\\"}"#, limits: limits)
    }

    func test_closersBeforeOpeners_doNotHideDepth() {
        XCTAssertThrowsError(try FrameGuard.check("]]]]][[[[[", limits: limits))
    }

    func test_frameOverTheSizeLimit_isRefusedWithItsSize() {
        let frame = Array(repeating: UInt8(ascii: " "), count: 1025)
        XCTAssertThrowsError(try FrameGuard.check(frame, limits: limits)) { error in
            XCTAssertEqual(error as? FrameGuard.Refusal, .tooLarge(size: 1025, limit: 1024))
        }
    }

    func test_refusals_mapToTheirProtocolErrors() {
        XCTAssertEqual(FrameGuard.Refusal.tooDeep(limit: 32, offset: 0).protocolError.code, .nestingTooDeep)
        XCTAssertEqual(FrameGuard.Refusal.tooLarge(size: 2, limit: 1).protocolError.code, .messageTooLarge)
    }
}
