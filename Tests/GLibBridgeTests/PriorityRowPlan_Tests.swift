import GLibBridge
import GtkBridge
import XCTest

/// The call's control bar at every width: captions when everything fits with them, icons when
/// only that fits, then the least needed controls out into the overflow menu — never a second
/// line, never an essential control lost.
final class PriorityRowPlan_Tests: XCTestCase {
    // The call bar's shape: mic, camera, devices | share, ⋯ | people, layout, minimize | hang up;
    // 52 px round buttons with ~70 px captions.
    private let bar: [PriorityRowPlan.Item] = [
        .init(width: 52, captionWidth: 70, group: 0),
        .init(width: 52, captionWidth: 50, group: 0),
        .init(width: 52, captionWidth: 50, group: 0),
        .init(width: 52, captionWidth: 40, group: 1, priority: 2),
        .init(width: 52, captionWidth: 35, group: 1, isOverflow: true),
        .init(width: 52, captionWidth: 45, group: 2, priority: 4),
        .init(width: 52, captionWidth: 45, group: 2, priority: 3),
        .init(width: 52, captionWidth: 65, group: 2, priority: 1),
        .init(width: 52, captionWidth: 55, group: 3),
    ]

    private func plan(_ width: Int, overflowWanted: Bool = false, items: [PriorityRowPlan.Item]? = nil) -> PriorityRowPlan {
        PriorityRowPlan.make(items: items ?? bar, available: width, spacing: 8, groupSpacing: 16, overflowWanted: overflowWanted)
    }

    func test_wide_everyControlWithItsCaption_noOverflow() {
        let wide = plan(900)
        XCTAssertTrue(wide.showsCaptions)
        XCTAssertEqual(wide.leftOut, [])
        XCTAssertEqual(wide.shown, [0, 1, 2, 3, 5, 6, 7, 8], "the overflow shows only when needed")
    }

    func test_wide_overflowWithContentOfItsOwn_isShown() {
        XCTAssertEqual(plan(900, overflowWanted: true).shown, Array(0...8))
    }

    func test_tooNarrowForCaptions_iconsOnly_nothingLeftOut() {
        // 8 buttons of 52 + 4×8 + 3×16 = 496; captioned it is wider.
        let medium = plan(500)
        XCTAssertFalse(medium.showsCaptions)
        XCTAssertEqual(medium.leftOut, [])
    }

    func test_phoneWidth_leastNeededLeaveFirst_essentialsStay_andItFits() {
        let available = 360 - 24
        let phone = plan(available)
        XCTAssertFalse(phone.showsCaptions)
        XCTAssertTrue(phone.shown.contains(4), "the overflow menu is shown when something is left out")
        for essential in [0, 1, 2, 8] { XCTAssertTrue(phone.shown.contains(essential), "item \(essential) left the bar") }
        XCTAssertTrue(phone.leftOut.contains(7), "minimize (the lowest priority) is the first to go")
        XCTAssertLessThanOrEqual(PriorityRowPlan.widths(items: bar, spacing: 8, groupSpacing: 16, overflowWanted: false).minimum, available)
        // What is shown fits: no second line and nothing cut off.
        let shownWidth = phone.shown.reduce(0) { $0 + bar[$1].width }
        XCTAssertLessThanOrEqual(shownWidth + (phone.shown.count - 1) * 8, available)
        // Higher priorities stay while lower ones go: never people out while minimize stays.
        if phone.leftOut.contains(5) { XCTAssertTrue(phone.leftOut.isSuperset(of: [3, 6, 7])) }
    }

    func test_hiddenControl_takesNoSpace_andIsNeverLeftOut() {
        var items = bar
        items[3].isPresent = false  // no screen sharing in this call
        let phone = plan(336, items: items)
        XCTAssertFalse(phone.shown.contains(3))
        XCTAssertFalse(phone.leftOut.contains(3))
    }

    func test_minimumWidth_isTheEssentialsWithTheOverflow() {
        // mic, camera, devices (2×8) | ⋯ (16) | hang up (16): 5×52 + 48.
        XCTAssertEqual(PriorityRowPlan.widths(items: bar, spacing: 8, groupSpacing: 16, overflowWanted: false).minimum, 5 * 52 + 48)
    }
}
