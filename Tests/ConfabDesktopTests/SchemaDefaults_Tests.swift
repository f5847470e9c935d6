import ConfabDesktop
import Foundation
import GLibBridge
import GtkBridge
import XCTest

/// The GSettings schema in data/ and the code that reads it agree. An installed app reads the
/// schema's defaults; one run from a checkout without it, the code's. They had drifted: the
/// schema opened an installed app's first window at 560x640, where a one-to-one call has no
/// room for the self-view's corner, while the code and the README said 900x700.
final class SchemaDefaults_Tests: XCTestCase {
    private static let schema = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/org.confab.Confab.gschema.xml")

    /// The `<default>` of `key`, as written in the schema.
    private func schemaDefault(_ key: String) throws -> String {
        let text = try String(contentsOf: Self.schema, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "<key name=\"\(key)\"[^>]*>\\s*<default>([^<]*)</default>")
        let match = try XCTUnwrap(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), "no default for \(key) in the schema")
        return String(text[Range(match.range(at: 1), in: text)!])
    }

    func test_firstWindowSize_isTheSchemasDefault() throws {
        XCTAssertEqual(try schemaDefault("window-width"), "\(AppPreferences.firstWindowSize.width)")
        XCTAssertEqual(try schemaDefault("window-height"), "\(AppPreferences.firstWindowSize.height)")
    }

    /// Every corner the self-view can be dragged to can be stored, and the default is where a
    /// call without a saved corner puts it.
    func test_selfViewCorner_everyCornerIsAChoiceOfTheSchema() throws {
        let text = try String(contentsOf: Self.schema, encoding: .utf8)
        for corner in TileGridPlan.Corner.allCases {
            XCTAssertTrue(text.contains("<value nick=\"\(corner.rawValue)\""), "\(corner) is not a value of the schema's corner enum")
        }
        XCTAssertEqual(try schemaDefault("self-view-corner"), "'\(TileGridPlan.Corner.bottomRight.rawValue)'")
    }
}
