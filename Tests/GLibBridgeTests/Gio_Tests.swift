import ConfabTestSupport
import Foundation
import GLibBridge
import XCTest

/// GSettings read live, programs started without blocking, and D-Bus values read out of
/// GVariants: the pieces the permissions banner stands on.
final class Gio_Tests: XCTestCase {
    override class func setUp() {
        // A private, in-process backend: nothing here may touch the developer's settings.
        setenv("GSETTINGS_BACKEND", "memory", 1)
    }

    func test_settings_unknownSchema_isNil_notAnAbort() { onMain {
        XCTAssertNil(Settings(schemaID: "org.confab.NoSuchSchema"))
    } }

    func test_settings_missingKey_isNil() throws {
        try XCTSkipUnless(Settings.isInstalled("org.gnome.desktop.privacy"), "needs gsettings-desktop-schemas")
        onMain {
            XCTAssertNil(Settings(schemaID: "org.gnome.desktop.privacy", requiredKeys: ["no-such-key"]))
        }
    }

    func test_settings_keyChanged_onChangeRuns_andReadsNewValue() throws {
        try XCTSkipUnless(Settings.isInstalled("org.gnome.desktop.privacy"), "needs gsettings-desktop-schemas")
        onMain {
            guard let settings = Settings(schemaID: "org.gnome.desktop.privacy", requiredKeys: ["disable-camera"]),
                  let writer = Settings(schemaID: "org.gnome.desktop.privacy") else { return XCTFail("schema") }
            var seen: [Bool] = []
            let connection = settings.onChange(of: "disable-camera") { seen.append(settings.bool("disable-camera")) }
            writer.setBool("disable-camera", true)
            MainLoop.iterate(until: { seen == [true] }, timeout: 2)
            XCTAssertEqual(seen, [true])
            connection.disconnect()
            writer.setBool("disable-camera", false)
            MainLoop.iterate(until: { false }, timeout: 0.1)
            XCTAssertEqual(seen, [true], "no calls after disconnect")
            XCTAssertFalse(settings.hasHandlers(for: "changed"))
        }
    }

    func test_launch_returnsAtOnce_thenReportsExitStatus() { onMain {
        var status: Int32??
        let started = monotonicSeconds()
        do {
            try ProgramLauncher.launch(["/bin/sh", "-c", "sleep 0.2; exit 3"]) { status = $0 }
        } catch {
            return XCTFail("\(error)")
        }
        XCTAssertLessThan(monotonicSeconds() - started, 0.15, "launching must not wait for the program")
        MainLoop.iterate(until: { status != nil }, timeout: 5)
        XCTAssertEqual(status, .some(3))
    } }

    func test_launch_missingProgram_throwsWithAReason() { onMain {
        do {
            try ProgramLauncher.launch(["/nonexistent/gnome-control-center", "camera"])
            XCTFail("a missing program must throw")
        } catch {
            XCTAssertTrue("\(error)".contains("nonexistent"), "\(error)")
        }
        XCTAssertNil(ProgramLauncher.findProgram("confab-no-such-program"))
        XCTAssertNotNil(ProgramLauncher.findProgram("sh"))
    } }
}
