@testable import ConfabCore
import XCTest

/// What the home page says of a call's name it cannot use: which characters, and what to type.
final class CallNameProblem_Tests: XCTestCase {
    func test_namesTheServerTakes_haveNoProblem() {
        for name in ["standup", "Team-Sync_2.0", "audio_room:town-hall", "  standup  ", String(repeating: "a", count: 64)] {
            XCTAssertNil(CallNameProblem(typed: name), name)
        }
    }

    func test_spacesAndSigns_areNamed_andTheNameWithDashesIsSuggested() {
        let problem = CallNameProblem(typed: "Team Sync! #1")
        XCTAssertEqual(problem, .characters([" ", "!", "#"], suggestion: "Team-Sync-1"))
        XCTAssertEqual(problem?.message, "A call’s name has only letters, digits, “.”, “-” and “_”, not spaces, “!”, “#”. “Team-Sync-1” would do.")
        // The suggestion is a name the server takes, and keeps the type typed before it.
        XCTAssertNil(CallNameProblem(typed: "Team-Sync-1"))
        XCTAssertEqual(CallNameProblem(typed: "audio_room:Town Hall"), .characters([" "], suggestion: "audio_room:Town-Hall"))
    }

    func test_nothingAllowedLeft_suggestsNothing() {
        XCTAssertEqual(CallNameProblem(typed: "😀 ☕"), .characters(["😀", " ", "☕"], suggestion: nil))
        XCTAssertEqual(CallNameProblem(typed: "😀")?.message, "A call’s name has only letters, digits, “.”, “-” and “_”, not “😀”.")
    }

    func test_tooLong_emptyAndUnknownType() {
        XCTAssertEqual(CallNameProblem(typed: String(repeating: "a", count: 65)), .tooLong(characters: 65))
        XCTAssertEqual(CallNameProblem(typed: "   "), .empty)
        XCTAssertEqual(CallNameProblem(typed: "audio_room:"), .empty)
        XCTAssertEqual(CallNameProblem(typed: "party:friday"), .unknownType("party"))
        XCTAssertEqual(CallNameProblem(typed: "party:friday")?.message, "“party” is not a type of call; the types are default, audio_room.")
    }
}
