import ConfabTestSupport
import Foundation
import XCTest

/// The apps start without Foundation proper: it and its ICU data cost each process 6.5 MiB of
/// footprint and 7 ms of start (issue 15), and the apps need only FoundationEssentials. The
/// dynamic loader lists what each program would load, every dependency of a dependency too.
final class LoadedLibraries_Tests: XCTestCase {
    func test_theAppAndThePeer_loadFoundationEssentialsOnly() throws {
        for program in ["confab", "confab-peer"] {
            let libraries = try loadedLibraries(of: program)
            // The listing is real: the program's own GStreamer and Swift's Essentials are in it.
            XCTAssertTrue(libraries.contains("libgstreamer-1.0.so.0"), "\(program): \(libraries)")
            XCTAssertTrue(libraries.contains("libFoundationEssentials.so"), "\(program): \(libraries)")
            for heavy in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
                XCTAssertFalse(libraries.contains(heavy), "\(program) loads \(heavy)")
            }
        }
    }

    /// The names of the shared libraries `program` loads, as the dynamic loader resolves them
    /// (LD_TRACE_LOADED_OBJECTS: the loader prints them and exits before the program runs).
    private func loadedLibraries(of program: String) throws -> Set<String> {
        var environment = ProcessInfo.processInfo.environment
        environment["LD_TRACE_LOADED_OBJECTS"] = "1"
        let (status, output) = try runToEnd(try builtExecutable(program), [], environment: environment)
        XCTAssertEqual(status, 0, output)
        return Set(output.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first.map(String.init)
        })
    }
}
