import ConfabTestSupport
import Foundation
import XCTest

/// A script of `meson-helpers/` that runs its own confab-server (the built one) and writes its
/// figures as JSON (`--json`): run to its end, its output printed and its exit status checked.
enum ServerScript {
    struct Run {
        /// What it printed (stdout and stderr), for failure messages.
        let output: String
        let figures: [String: Any]
    }

    static func run(_ name: String, _ arguments: [String]) throws -> Run {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let figures = FileManager.default.temporaryDirectory.appendingPathComponent("confab-\(name)-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: figures) }
        let (status, text) = try runToEnd(URL(fileURLWithPath: "/usr/bin/env"),
                                          ["python3", repository.appendingPathComponent("meson-helpers/\(name)").path] + arguments
                                              + ["--server-binary", try ServerBinary.executable().path, "--json", figures.path])
        print(text)
        XCTAssertEqual(status, 0, text)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: figures)) as? [String: Any], text)
        return Run(output: text, figures: parsed)
    }
}
