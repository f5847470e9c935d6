import GLibBridge
import GtkBridge
import XCTest

/// The call grid: with a corner tile (the self-view beside one or two others), the others share
/// the whole area and the corner tile sits small over its bottom-right corner, clear of the bar
/// under it; where it would cover too much of them, it joins the grid.
final class TileGridPlan_Tests: XCTestCase {
    private typealias Frame = TileGridPlan.Frame

    func test_oneOtherInADefaultWindow_theOtherTakesTheWholeArea_andTheCornerSitsAboveItsBar() {
        let plan = TileGridPlan.make(count: 1, hasCorner: true, width: 876, height: 505, spacing: 8, clearance: 44)
        XCTAssertEqual(plan.tiles, [Frame(x: 0, y: 0, width: 876, height: 505)])
        XCTAssertEqual(plan.corner, Frame(x: 876 - 240 - 12, y: 505 - 135 - 12 - 44, width: 240, height: 135))
    }

    func test_twoOthers_sideBySide_withTheCornerOverTheSecond() {
        let plan = TileGridPlan.make(count: 2, hasCorner: true, width: 1000, height: 600, spacing: 8, clearance: 44)
        XCTAssertEqual(plan.tiles, [Frame(x: 0, y: 0, width: 496, height: 600), Frame(x: 504, y: 0, width: 496, height: 600)])
        XCTAssertEqual(plan.corner?.x, 1000 - 240 - 12)
    }

    func test_phoneSizedArea_theCornerTileJoinsTheGrid_oneAboveTheOther() {
        let narrow = TileGridPlan.make(count: 1, hasCorner: true, width: 336, height: 450, spacing: 8, clearance: 44)
        XCTAssertNil(narrow.corner)
        // Side by side each would be a 164x450 strip showing a fifth of a 16:9 picture.
        XCTAssertEqual(narrow.tiles, [Frame(x: 0, y: 0, width: 336, height: 221), Frame(x: 0, y: 229, width: 336, height: 221)])
        // Wide but short (a 500 px tall window): it would cover most of the other's height.
        let short = TileGridPlan.make(count: 1, hasCorner: true, width: 876, height: 300, spacing: 8, clearance: 44)
        XCTAssertNil(short.corner)
        XCTAssertEqual(short.tiles.count, 2)
    }

    func test_gridShape_changesOnlyForAClearlyLargerPicture_andNeverBelowTheSmallestCell() {
        // Side by side in 530x330 (a call beside the open sidebar): 261x330 cells show a 16:9
        // picture of 261x146; one above the other 530x161 cells, 286x161: larger, but by less
        // than a quarter, so the usual shape stays (it crops the sides, not the faces).
        XCTAssertEqual(TileGridPlan.columns(for: 2, width: 530, height: 330, spacing: 8), 2)
        // Two people in a tall, narrow area: one above the other.
        XCTAssertEqual(TileGridPlan.columns(for: 2, width: 400, height: 700, spacing: 8), 1)
        // Four in a wide, short strip: one row.
        XCTAssertEqual(TileGridPlan.columns(for: 4, width: 1600, height: 220, spacing: 8), 4)
        // Four in a 16:9 area: two by two, as usual.
        XCTAssertEqual(TileGridPlan.columns(for: 4, width: 1600, height: 900, spacing: 8), 2)
        // A stacked pair would leave each tile 121 px tall where it needs 122: side by side.
        XCTAssertEqual(TileGridPlan.columns(for: 2, width: 336, height: 250, spacing: 8, smallestCell: (150, 122)), 2)
        XCTAssertEqual(TileGridPlan.columns(for: 2, width: 336, height: 260, spacing: 8, smallestCell: (150, 122)), 1)
        // The plan uses the shape.
        let tall = TileGridPlan.make(count: 3, hasCorner: false, width: 400, height: 1000, spacing: 8, clearance: 44)
        XCTAssertEqual(tall.tiles.map(\.x), [0, 0, 0])
        XCTAssertEqual(tall.tiles.map(\.width), [400, 400, 400])
    }

    func test_aloneInTheCall_theCornerTileTakesTheWholeArea() {
        let alone = TileGridPlan.make(count: 0, hasCorner: true, width: 876, height: 505, spacing: 8, clearance: 44)
        XCTAssertNil(alone.corner)
        XCTAssertEqual(alone.tiles, [Frame(x: 0, y: 0, width: 876, height: 505)])
    }

    func test_noCorner_equalCellsRowByRow_theLastRowCentred() {
        let plan = TileGridPlan.make(count: 5, hasCorner: false, width: 808, height: 408, spacing: 8, clearance: 44)
        XCTAssertNil(plan.corner)
        XCTAssertEqual(plan.tiles, [
            Frame(x: 0, y: 0, width: 264, height: 200), Frame(x: 272, y: 0, width: 264, height: 200), Frame(x: 544, y: 0, width: 264, height: 200),
            Frame(x: 136, y: 208, width: 264, height: 200), Frame(x: 408, y: 208, width: 264, height: 200),
        ])
        XCTAssertEqual((1...10).map(TileGridPlan.columns(for:)), [1, 2, 2, 2, 3, 3, 3, 3, 3, 4])
    }

    func test_eachCorner_insideTheMargins_theBottomOnesAboveTheBar() {
        func corner(_ position: TileGridPlan.Corner) -> Frame? {
            TileGridPlan.make(count: 1, hasCorner: true, width: 876, height: 505, spacing: 8, clearance: 44, position: position).corner
        }
        XCTAssertEqual(corner(.topLeft), Frame(x: 12, y: 12, width: 240, height: 135))
        XCTAssertEqual(corner(.topRight), Frame(x: 624, y: 12, width: 240, height: 135))
        XCTAssertEqual(corner(.bottomLeft), Frame(x: 12, y: 314, width: 240, height: 135))
        XCTAssertEqual(corner(.bottomRight), Frame(x: 624, y: 314, width: 240, height: 135))
    }

    func test_dragged_followsThePointerWithinTheArea_andSettlesInTheNearestCorner() {
        let dragged = TileGridPlan.make(count: 1, hasCorner: true, width: 876, height: 505, spacing: 8, clearance: 44,
                                        position: .bottomRight, dragOffset: (-500, -250)).corner!
        XCTAssertEqual(dragged, Frame(x: 124, y: 64, width: 240, height: 135))
        XCTAssertEqual(TileGridPlan.nearestCorner(to: dragged, width: 876, height: 505), .topLeft)
        let pastTheEdge = TileGridPlan.make(count: 1, hasCorner: true, width: 876, height: 505, spacing: 8, clearance: 44,
                                            position: .bottomRight, dragOffset: (400, 400)).corner!
        XCTAssertEqual(pastTheEdge, Frame(x: 636, y: 370, width: 240, height: 135), "never outside the area")
        XCTAssertEqual(TileGridPlan.nearestCorner(to: Frame(x: 500, y: 10, width: 240, height: 135), width: 876, height: 505), .topRight)
        XCTAssertEqual(TileGridPlan.nearestCorner(to: Frame(x: 10, y: 300, width: 240, height: 135), width: 876, height: 505), .bottomLeft)
    }

    /// The keyboard's way: an arrow key goes to the corner on that side and keeps the other side.
    func test_arrowKey_movesToTheCornerThatWay_keepingTheOtherSide() {
        XCTAssertEqual(TileGridPlan.Corner.bottomRight.moved(.up), .topRight)
        XCTAssertEqual(TileGridPlan.Corner.bottomRight.moved(.left), .bottomLeft)
        XCTAssertEqual(TileGridPlan.Corner.topLeft.moved(.down), .bottomLeft)
        XCTAssertEqual(TileGridPlan.Corner.topLeft.moved(.right), .topRight)
        for corner in TileGridPlan.Corner.allCases {
            for direction in [TileGridPlan.Corner.Direction.left, .right, .up, .down] {
                XCTAssertEqual(corner.moved(direction).moved(direction), corner.moved(direction), "\(corner) \(direction) twice")
            }
        }
    }
}
