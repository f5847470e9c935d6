import ConfabTestSupport
import ConfabProtocol
import Foundation
import XCTest

/// One call with real media: `media-call.sh` inside `meson-helpers/netns-run` (a throwaway
/// network namespace, because Janus never gathers loopback candidates; ARCHITECTURE.md), with
/// confab-server's managed Janus and one confab-peer per `Peer`. Gives back each peer's report.
struct MediaCall {
    /// One peer: when it joins (seconds after the server is up) and its confab-peer arguments
    /// after `--media test`, e.g. `join default:demo --create --duration 8 --color FF0000`.
    struct Peer {
        let user: String
        let joinsAfter: Double
        let arguments: [String]
    }

    let peers: [Peer]
    /// Run beside the peers with the server's URL and the output folder (see media-call.sh).
    var controller: [String] = []
    /// Where the reports, logs and the controller's files go; kept when given (else a
    /// temporary folder removed after a successful call).
    var outputDirectory: URL?
    /// The script in Support/ that runs the call (`replica-call.sh`: two coordinators), and
    /// what it is told through its environment (e.g. media-call.sh's `MEDIA_CALL_JANUS_NODES`).
    var script = "media-call.sh"
    var environment: [String: String] = [:]

    /// Runs the call and reads every report; throws with the peers' logs when something failed.
    func run(timeout: Duration = .seconds(45)) async throws -> [String: MediaPeerReport] {
        let directory = outputDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("confab-media-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let binaries = try builtExecutable("confab-peer").deletingLastPathComponent()
        let process = Process()
        process.executableURL = Self.repository.appendingPathComponent("meson-helpers/netns-run")
        process.arguments = ["--", Self.repository.appendingPathComponent("Tests/ConfabEndToEndTests/Support/\(script)").path,
                             binaries.path, directory.path]
            + Self.withMembers(peers).map { "\($0.joinsAfter) \($0.user) \($0.arguments.joined(separator: " "))" }
        if !controller.isEmpty || !environment.isEmpty {
            var environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
            if !controller.isEmpty { environment["MEDIA_CALL_CONTROLLER"] = controller.joined(separator: " ") }
            process.environment = environment
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let collected = ProcessOutput(output)
        try process.run()
        try await waitForExit(process, timeout: timeout)
        var reports: [String: MediaPeerReport] = [:]
        var problems: [String] = []
        for peer in peers {
            let log = (try? String(contentsOf: directory.appendingPathComponent("\(peer.user).log"), encoding: .utf8)) ?? "(no log)"
            do {
                let data = try Data(contentsOf: directory.appendingPathComponent("\(peer.user).json"))
                reports[peer.user] = try ConfabJSON.decoder().decode(MediaPeerReport.self, from: data)
            } catch {
                problems.append("no readable report from \(peer.user) (\(error)); its output:\n\(log)")
            }
            let status = (try? String(contentsOf: directory.appendingPathComponent("\(peer.user).status"), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if status != "0" { problems.append("\(peer.user)'s peer exited with \(status ?? "?"); its output:\n\(log)") }
        }
        guard process.terminationStatus == 0, problems.isEmpty else {
            let serverLog = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            let said = await collected.all()
            throw TestFailure("the media call failed (exit \(process.terminationStatus)):\n\(said)\n"
                + problems.joined(separator: "\n") + "\nserver log, \(logExcerpt(serverLog))")
        }
        if outputDirectory == nil {
            // CONFAB_E2E_KEEP=1 keeps every call's folder (logs, reports), to look into a test
            // that failed on what a successful call reported.
            if ProcessInfo.processInfo.environment["CONFAB_E2E_KEEP"] != nil {
                print("media call files kept in \(directory.path)")
            } else {
                try? FileManager.default.removeItem(at: directory)
            }
        }
        return reports
    }

    /// Calls are private (issue 16, item 8), and whichever peer joins first creates the call:
    /// each `join CALL --create` without `--members` gets every user who joins that call as
    /// members, so the others are members, not strangers, whoever comes first.
    static func withMembers(_ peers: [Peer]) -> [Peer] {
        func joinedCall(_ peer: Peer) -> String? {
            guard let join = peer.arguments.firstIndex(of: "join"), join + 1 < peer.arguments.count else { return nil }
            return peer.arguments[join + 1]
        }
        var usersByCall: [String: [String]] = [:]
        for peer in peers {
            if let call = joinedCall(peer), usersByCall[call]?.contains(peer.user) != true { usersByCall[call, default: []].append(peer.user) }
        }
        return peers.map { peer in
            guard let call = joinedCall(peer), peer.arguments.contains("--create"), !peer.arguments.contains("--members"),
                  let users = usersByCall[call], users.count > 1
            else { return peer }
            return Peer(user: peer.user, joinsAfter: peer.joinsAfter,
                        arguments: peer.arguments + ["--members", users.joined(separator: ",")])
        }
    }

    /// The checkout this file is in (the scripts live there).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Why a throwaway network namespace cannot be made here, or nil when it can: root uses
    /// `ip netns`; anyone else needs unprivileged user namespaces (`unshare --user`).
    static func namespaceUnavailableReason() -> String? {
        if geteuid() == 0 { return nil }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["unshare", "--user", "--map-root-user", "--net", "true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        do {
            try probe.run()
            probe.waitUntilExit()
        } catch {
            return "not root, and `unshare` could not be run (\(error))"
        }
        return probe.terminationStatus == 0 ? nil : "not root, and `unshare --user --map-root-user --net` is not allowed here"
    }
}

extension MediaCall {
    /// Calls already run in this test process, by suite: each suite's tests share one call.
    nonisolated(unsafe) private static var outcomes: [String: Result<[String: MediaPeerReport], any Error>] = [:]

    /// The reports of `suite`'s call, run with `peers` the first time a test asks (and
    /// `summary` printed then). Skips — loudly, in the output — where no network namespace can
    /// be made; a failed call fails every test of the suite with its error.
    static func reports(for suite: String, peers: [Peer], summary: ([String: MediaPeerReport]) -> Void = { _ in })
        async throws -> [String: MediaPeerReport] {
        if let reason = namespaceUnavailableReason() {
            let banner = String(repeating: "!", count: 78)
            print("\n\(banner)\n!! SKIPPING the \(suite) end-to-end tests: \(reason).\n!! They need root (ip netns) "
                + "or unprivileged user namespaces; CI runs them as root.\n\(banner)\n")
            throw XCTSkip("\(suite) end-to-end tests need a network namespace: \(reason)")
        }
        if outcomes[suite] == nil {
            do {
                let reports = try await MediaCall(peers: peers).run()
                outcomes[suite] = .success(reports)
                summary(reports)
            } catch {
                outcomes[suite] = .failure(error)
            }
        }
        return try XCTUnwrap(outcomes[suite]).get()
    }
}

extension MediaCall {
    nonisolated(unsafe) private static var stampedOutcomes: [String: Result<(reports: [String: MediaPeerReport], stamps: [String: Date]), any Error>] = [:]
    /// The peers' logs of each suite's call (its folder is removed once read), for a test to
    /// show when what the reports say fails it.
    nonisolated(unsafe) private static var stampedLogs: [String: [String: String]] = [:]

    /// `user`'s log in `suite`'s call: its lines containing any of `words` (all with none).
    static func log(of user: String, in suite: String, containing words: [String] = []) -> String {
        let log = stampedLogs[suite]?[user] ?? "(no log)"
        guard !words.isEmpty else { return log }
        return log.split(separator: "\n").filter { line in words.contains { line.contains($0) } }.joined(separator: "\n")
    }

    /// Like `reports(for:peers:)`, for a call with a controller (see media-call.sh) that writes
    /// the moment it acted (an ISO 8601 time) to `stampFile` in the call's folder: the reports,
    /// and that moment.
    static func reports(for suite: String, peers: [Peer], controller: [String], stampFile: String, timeout: Duration = .seconds(60))
        async throws -> (reports: [String: MediaPeerReport], stamp: Date) {
        let (reports, stamps) = try await reports(for: suite, peers: peers, controller: controller, stampFiles: [stampFile], timeout: timeout)
        return (reports, try XCTUnwrap(stamps[stampFile]))
    }

    /// The same, for a controller that acts several times, each moment in its own file.
    /// `janusNodes` more than 0 gives the server that many plain Janus nodes (`--janus-node`)
    /// instead of its managed Janus (media-call.sh's `MEDIA_CALL_JANUS_NODES`).
    static func reports(for suite: String, peers: [Peer], controller: [String], stampFiles: [String], janusNodes: Int = 0,
                        timeout: Duration = .seconds(60))
        async throws -> (reports: [String: MediaPeerReport], stamps: [String: Date]) {
        if let reason = namespaceUnavailableReason() {
            throw XCTSkip("\(suite) end-to-end tests need a network namespace: \(reason)")
        }
        if stampedOutcomes[suite] == nil {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-\(UUID().uuidString.prefix(8))")
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let environment = janusNodes > 0 ? ["MEDIA_CALL_JANUS_NODES": "\(janusNodes)"] : [:]
                let reports = try await MediaCall(peers: peers, controller: controller, outputDirectory: directory, environment: environment)
                    .run(timeout: timeout)
                var stamps: [String: Date] = [:]
                for file in stampFiles {
                    let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                    stamps[file] = try Date(text.trimmingCharacters(in: .whitespacesAndNewlines),
                                            strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
                }
                stampedOutcomes[suite] = .success((reports, stamps))
                stampedLogs[suite] = Dictionary(uniqueKeysWithValues: peers.map { peer in
                    (peer.user, (try? String(contentsOf: directory.appendingPathComponent("\(peer.user).log"), encoding: .utf8)) ?? "(no log)")
                })
                try? FileManager.default.removeItem(at: directory)
            } catch {
                stampedOutcomes[suite] = .failure(error)
            }
        }
        return try XCTUnwrap(stampedOutcomes[suite]).get()
    }

    /// A script in Support/, for `controller`.
    static func supportScript(_ name: String) -> String {
        repository.appendingPathComponent("Tests/ConfabEndToEndTests/Support/\(name)").path
    }
}
