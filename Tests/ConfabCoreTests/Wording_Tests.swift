@testable import ConfabCore
import XCTest

/// The values of a translated sentence land in its slots, in the translation's order.
final class Wording_Tests: XCTestCase {
    func test_fill_putsValuesInOrder_andByPosition() {
        XCTAssertEqual(Wording.fill("Call with %@ and %@", with: ["Bob", "Carol"]), "Call with Bob and Carol")
        // A translation may reorder: German puts the count last here.
        XCTAssertEqual(Wording.fill("%2$@, %3$@ und %1$@ weitere", with: ["3", "Bob", "Carol"]), "Bob, Carol und 3 weitere")
    }

    func test_fill_keepsPercentSigns_andIgnoresMissingValues() {
        XCTAssertEqual(Wording.fill("100%% of %@", with: ["calls"]), "100% of calls")
        XCTAssertEqual(Wording.fill("%@ and %@", with: ["Bob"]), "Bob and ")
        XCTAssertEqual(Wording.fill("%5$@!", with: ["Bob"]), "!")
        XCTAssertEqual(Wording.fill("50% off", with: []), "50% off")
    }

    func test_untranslatedMessage_isTheEnglishText() {
        XCTAssertEqual(tr("A sentence nobody translated %@", "here"), "A sentence nobody translated here")
        XCTAssertEqual(trn("%@ person", "%@ people", 1), "1 person")
        XCTAssertEqual(trn("%@ person", "%@ people", 4), "4 people")
    }
}
