import Foundation
import JanusProtocol
import Logging
@testable import ConfabServer

/// Talks to Janus the way a Confab client does with its join's media endpoint: one session,
/// a videoroom handle per attempt.
struct JanusProbe {
    let client: JanusSignallingClient
    let session: UInt64

    static func connect(to url: String) async throws -> JanusProbe {
        var logger = Logger(label: "janus-probe")
        logger.logLevel = .critical
        let client = try await JanusSignallingClient.connect(to: url, logger: logger)
        return JanusProbe(client: client, session: try await client.createSession())
    }

    /// `join` as publisher with `token`; returns the `joined` data or throws Janus's refusal.
    func joinAsPublisher(room: UInt64, token: String?, display: String = "probe") async throws -> VideoRoomResponse {
        let handle = try await client.attachVideoRoom(session: session)
        return try await client.videoRoom(.joinPublisher(room: room, token: token, display: display), session: session, handle: handle)
    }

    /// The displays of everyone in `room` now.
    func participantDisplays(room: UInt64) async throws -> [String] {
        let handle = try await client.attachVideoRoom(session: session)
        let data = try await client.videoRoom(.listParticipants(room: room), session: session, handle: handle)
        return (data.participants ?? []).compactMap(\.display)
    }

    func close() async {
        await client.close()
    }
}

/// Janus processes whose parent is `parent` (this test process for in-process servers).
func janusChildren(of parent: Int32 = getpid()) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")"), stat.contains("(janus)")
        else { return false }
        // After "comm)": state, then ppid.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 && fields[0] != "Z" && Int32(fields[1]) == parent
    }
}

/// True when `pid` is gone (or a zombie nobody reaped yet).
func processHasExited(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
        return true
    }
    return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
}

/// Polls `condition` every 50 ms until it holds or `timeout` passes.
func eventually(within timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

/// Skips LOUDLY when this machine has no `janus`; CI installs it (meson-helpers/install-deps).
func requireJanus() throws {
    guard ManagedJanus.findExecutable() != nil, ManagedJanusConfiguration.findLibraryFolder() != nil else {
        let message = "SKIPPING JANUS TESTS: no `janus` on PATH (or no videoroom plugin). Install the Debian package `janus` (meson-helpers/install-deps does)."
        FileHandle.standardError.write(Data("\n*** \(message) ***\n\n".utf8))
        throw XCTSkip(message)
    }
}

import XCTest
