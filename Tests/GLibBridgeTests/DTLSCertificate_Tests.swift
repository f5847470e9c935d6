import ConfabTestSupport
import Foundation
import GLibBridge
import XCTest

/// The process's DTLS certificate: made on a thread of its own, so the main loop (the UI, the
/// join's signalling) goes on meanwhile; and with the RSA key an earlier run kept
/// (`DTLSKeyCache`).
///
/// GStreamer makes the certificate once per process, and an earlier test in this process may
/// have made it already: each check runs in a process of its own (this test binary, asked for
/// that one test).
final class DTLSCertificate_Tests: XCTestCase {
    private static let childVariable = "CONFAB_DTLS_CERTIFICATE_CHILD"

    func test_makingTheCertificate_leavesTheMainLoopRunning() throws {
        try inProcessOfItsOwn("test_makingTheCertificate_leavesTheMainLoopRunning", checkMainLoop)
    }

    /// Run again, a program makes its certificate with the RSA key the first run kept (no prime
    /// search: 0.07–0.9 s of a core here); each run's certificate is its own, and its offer
    /// gives that certificate's fingerprint.
    func test_aSecondRun_makesItsCertificateWithTheKeptKey() throws {
        if isPresentingChild { return try presentCertificate() }
        let cache = try temporaryCache()
        let keyFile = cache.appendingPathComponent("confab/dtls-key.pem")
        let first = try certificateInProcessOfItsOwn(cache: cache, test: #function)
        let kept = try XCTUnwrap(try? String(contentsOf: keyFile, encoding: .utf8), "no key kept")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int, 0o600,
                       "the key is readable by others")
        XCTAssertEqual(first.modulus, try openssl(["rsa", "-noout", "-modulus"], input: kept), "the key kept is not the one used")
        let second = try certificateInProcessOfItsOwn(cache: cache, test: #function)
        XCTAssertEqual(second.modulus, first.modulus, "the second run did not use the kept key")
        XCTAssertNotEqual(second.fingerprint, first.fingerprint, "the second run presented the first run's certificate")
    }

    /// A kept key older than a week, one that others could read, or one that cannot be read, is
    /// replaced by a new one.
    func test_anOldExposedOrUnreadableKey_isReplaced() throws {
        if isPresentingChild { return try presentCertificate() }
        let cache = try temporaryCache()
        let keyFile = cache.appendingPathComponent("confab/dtls-key.pem")
        let first = try certificateInProcessOfItsOwn(cache: cache, test: #function)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -8 * 24 * 3600)], ofItemAtPath: keyFile.path)
        let afterAWeek = try certificateInProcessOfItsOwn(cache: cache, test: #function)
        XCTAssertNotEqual(afterAWeek.modulus, first.modulus, "a key older than a week was used again")
        XCTAssertEqual(try openssl(["rsa", "-noout", "-modulus"], input: String(contentsOf: keyFile, encoding: .utf8)), afterAWeek.modulus)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        let afterExposure = try certificateInProcessOfItsOwn(cache: cache, test: #function)
        XCTAssertNotEqual(afterExposure.modulus, afterAWeek.modulus, "a key others could read was used")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int, 0o600)

        try Data("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n".utf8).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        let afterDamage = try certificateInProcessOfItsOwn(cache: cache, test: #function)
        XCTAssertNotEqual(afterDamage.modulus, afterExposure.modulus)
        XCTAssertEqual(try openssl(["rsa", "-noout", "-modulus"], input: String(contentsOf: keyFile, encoding: .utf8)), afterDamage.modulus)
    }

    private func temporaryCache() throws -> URL {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("confab-dtls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: cache) }
        return cache
    }

    /// The modulus and fingerprint of the certificate a new process of this test binary
    /// presents, with `cache` as its XDG cache folder.
    private func certificateInProcessOfItsOwn(cache: URL, test: String) throws -> (modulus: String, fingerprint: String) {
        let text = try runChild(test, as: Self.presenting, cache: cache)
        func value(_ key: String) throws -> String {
            try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("dtls-\(key): ") }.map { String($0.dropFirst(key.count + 7)) }, text)
        }
        return (try value("modulus"), try value("fingerprint"))
    }

    private static let presenting = "presenting"
    private var isPresentingChild: Bool { ProcessInfo.processInfo.environment[Self.childVariable] == Self.presenting }

    /// What the child process of `certificateInProcessOfItsOwn` does: makes the certificate and
    /// prints its modulus and fingerprint, having checked that its offer gives that fingerprint.
    private func presentCertificate() throws {
        try onMain {
            MainActorMainLoopBridge.install()
            defer { MainActorMainLoopBridge.uninstall() }
            var made = false
            let start = Date()
            Task { @MainActor in
                await DTLSCertificate.ready()
                made = true
            }
            XCTAssertTrue(MainLoop.iterate(until: { made }, timeout: 30), "no certificate within 30 s")
            print(String(format: "dtls: certificate ready after %.3f s", Date().timeIntervalSince(start)))
            let pem = try XCTUnwrap(DTLSCertificate.presented(), "no certificate presented")
            let modulus = try openssl(["x509", "-noout", "-modulus"], input: pem)
            let fingerprint = try XCTUnwrap(try openssl(["x509", "-noout", "-fingerprint", "-sha256"], input: pem)
                .split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
            // What the other side compares the certificate with.
            let (pipeline, _, offer) = try offeredSendOnlyVP8Connection()
            pipeline.stop()
            let offered = offer.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=fingerprint:") }.map(String.init)
            XCTAssertEqual(offered?.uppercased(), "a=fingerprint:sha-256 \(fingerprint)".uppercased(), offer)
            print("dtls-modulus: \(modulus)")
            print("dtls-fingerprint: \(fingerprint)")
        }
    }

    private func inProcessOfItsOwn(_ test: String, _ check: () throws -> Void) throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] == test { return try check() }
        _ = try runChild(test, as: test, cache: try temporaryCache())
    }

    /// Runs `test` of this class in a new process of this test binary, with `role` in
    /// `childVariable` and `cache` as its XDG cache folder; its output, once it passed.
    private func runChild(_ test: String, as role: String, cache: URL) throws -> String {
        let text = try runTestInItsOwnProcess("GLibBridgeTests.DTLSCertificate_Tests/\(test.replacingOccurrences(of: "()", with: ""))",
                                              adding: [Self.childVariable: role, "XDG_CACHE_HOME": cache.path])
        print(text.split(separator: "\n").filter { $0.hasPrefix("dtls: ") }.joined(separator: "\n"))
        return text
    }

    private func checkMainLoop() { onMain {
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
        // (measured here: 2 that way, 60–90 on a thread of its own, with a new key). The key
        // is new here: the cache is a folder of this test's own.
        XCTAssertGreaterThanOrEqual(ticksWhileMaking ?? 0, 8, "the main loop stood still while the certificate was made")
        print("dtls: the main loop ran \(ticksWhileMaking ?? 0) timer ticks (2 ms) while the certificate was made")
        // Made once: asking again returns at once.
        var again = false
        Task { @MainActor in
            await DTLSCertificate.ready()
            again = true
        }
        XCTAssertTrue(MainLoop.iterate(until: { again }, timeout: 1))
    } }

    private func openssl(_ arguments: [String], input: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("confab-dtls-\(UUID().uuidString).pem")
        try input.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, text) = try runToEnd(URL(fileURLWithPath: "/usr/bin/openssl"), arguments + ["-in", file.path])
        XCTAssertEqual(status, 0, text)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
