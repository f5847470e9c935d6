import ConfabProtocol
import Foundation
import XCTest

/// The text helpers that stand in for Foundation's in the apps (which link FoundationEssentials
/// alone) give what Foundation gives; the tests may use Foundation to say so.
final class PlainText_Tests: XCTestCase {
    func test_trimmingSpaces_trimsWhatFoundationsWhitespacesTrims() {
        for text in ["  standup ", "\tteam\t", " \u{00A0}x\u{2003} ", "\nline\n", " \r\n a b \r\n ", "", "   ", "a", " ü "] {
            XCTAssertEqual(text.trimmingSpaces(), text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }

    func test_trimmingWhitespace_trimsLineBreaksToo() {
        for text in ["  hello \n", "\r\n\thi there\t\r\n", "\n\n", "x", " \u{2028}y\u{2029} "] {
            XCTAssertEqual(text.trimmingWhitespace(), text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
        }
    }

    func test_decimals_matchPrintfsFixedFormat() {
        let cases: [(Double, Int)] = [(0, 1), (0.25, 3), (1.5, 1), (2, 1), (0.0004, 4), (1795795776.1234567, 3), (12.3456, 4),
                                      (-2.74, 1), (0.06, 1), (9.999, 2), (1e6 + 0.7, 0), (0.1234, 3), (3.14159, 2)]
        for (number, digits) in cases {
            XCTAssertEqual(number.text(decimals: digits), String(format: "%.\(digits)f", number), "\(number) with \(digits)")
        }
    }

    func test_decimals_roundTiesAwayFromZero() {
        XCTAssertEqual(2.5.text(decimals: 0), "3")
        XCTAssertEqual((-0.25).text(decimals: 1), "-0.3")
        XCTAssertEqual(0.125.text(decimals: 2), "0.13")
    }

    func test_hexText_padsToTheDigitsAsked() {
        for value in [0, 7, 10, 15, 16, 171, 255] as [UInt8] {
            XCTAssertEqual(value.hexText(digits: 2), String(format: "%02X", value))
        }
        XCTAssertEqual(0x1234.hexText(digits: 2), "1234")
    }
}
