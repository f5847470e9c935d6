import ConfabTestSupport
import Foundation
import GLibBridge
import XCTest

/// The DTLS certificate (an RSA key, 0.1–0.4 s of a core) is made on a thread of its own, so
/// the main loop (the UI, the join's signalling) goes on meanwhile.
final class DTLSCertificate_Tests: XCTestCase {
    private static let childVariable = "CONFAB_DTLS_CERTIFICATE_CHILD"

    /// GStreamer makes the certificate once per process, and an earlier test in this process
    /// may have made it already: the check runs in a process of its own (this test binary,
    /// asked for this one test).
    func test_makingTheCertificate_leavesTheMainLoopRunning() throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] == "1" { return checkInThisProcess() }
        let (status, text) = try runToEnd(URL(fileURLWithPath: CommandLine.arguments[0]),
                                          ["GLibBridgeTests.DTLSCertificate_Tests/test_makingTheCertificate_leavesTheMainLoopRunning"],
                                          environment: ProcessInfo.processInfo.environment.merging([Self.childVariable: "1"]) { $1 })
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("Executed 1 test, with 0 failures"), text)
        print(text.split(separator: "\n").first { $0.contains("timer ticks") } ?? "")
    }

    private func checkInThisProcess() { onMain {
        MainActorMainLoopBridge.install()
        defer { MainActorMainLoopBridge.uninstall() }
        var ticks = 0
        var ticksWhileMaking: Int?
        let timer = RepeatingTimer(interval: 0.002) { ticks += 1 }
        Task { @MainActor in
            let before = ticks
            await DTLSCertificate.ready()
            ticksWhileMaking = ticks - before
        }
        XCTAssertTrue(MainLoop.iterate(until: { ticksWhileMaking != nil }, timeout: 30), "no certificate within 30 s")
        timer.cancel()
        // Made on the main thread, it would hold the loop for all of it: a tick or two at most
        // (measured here: 2 that way, 60–90 on a thread of its own).
        XCTAssertGreaterThanOrEqual(ticksWhileMaking ?? 0, 8, "the main loop stood still while the certificate was made")
        print("the main loop ran \(ticksWhileMaking ?? 0) timer ticks (2 ms) while the certificate was made")
        // Made once: asking again returns at once.
        var again = false
        Task { @MainActor in
            await DTLSCertificate.ready()
            again = true
        }
        XCTAssertTrue(MainLoop.iterate(until: { again }, timeout: 1))
    } }
}
