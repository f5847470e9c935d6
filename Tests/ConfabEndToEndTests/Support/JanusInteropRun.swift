import ConfabProtocol
import ConfabTestSupport
import Foundation
import XCTest

/// One run of `janus-interop.sh` inside a throwaway network namespace: a plain Janus,
/// `confab-peer janus` and headless Chromium on our janus.js page in one VideoRoom. Gives back
/// the peer's report and what the page logged.
struct JanusInteropRun {
    /// The page's "confab-interop KIND key=value …" lines, parsed.
    struct PageLine {
        let kind: String
        let fields: [String: String]

        func number(_ key: String) -> Double? { fields[key].flatMap(Double.init) }
    }

    /// The parts of `confab-peer janus`'s report the test reads.
    struct PeerReport: Decodable {
        struct Media: Decodable {
            let remote: [RemoteMedia]
        }
        let room: UInt64
        let display: String
        let error: String?
        let media: Media
    }

    let peer: PeerReport
    let page: [PageLine]
    /// The peer's join steps in the order it marked them ("confab-timeline STEP … at=…" lines).
    let peerSteps: [String]
    /// Chromium's whole log, for failure messages.
    let chromiumLog: String
    /// Processes still running whose command line names this run's folder (Chromium's profile
    /// is in it): there must be none once the run is over.
    let leftovers: [String]

    static let room: UInt64 = 4242
    static let page = MediaCall.repository.appendingPathComponent("Tests/ConfabEndToEndTests/Resources/janus-videoroom.html")

    /// Why this machine cannot run it, or nil when it can.
    static func unavailableReason() -> String? {
        if let reason = MediaCall.namespaceUnavailableReason() { return reason }
        for (file, package) in [("/usr/bin/chromium", "chromium"), ("/usr/bin/janus", "janus"),
                                ("/usr/share/javascript/janus-gateway/janus.js", "libjs-janus-gateway"),
                                ("/usr/share/javascript/webrtc-adapter/adapter.js", "libjs-webrtc-adapter")]
        where !FileManager.default.fileExists(atPath: file) {
            return "\(file) is missing (Debian package \(package); meson-helpers/install-deps --with-test-tools installs it)"
        }
        return nil
    }

    /// Runs Janus, the peer (with `peerArguments`) and Chromium, until the page has published
    /// for `pageSeconds`.
    static func run(pageSeconds: Int, peerArguments: [String], timeout: Duration = .seconds(120)) async throws -> JanusInteropRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-interop-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let binaries = try builtExecutable("confab-peer").deletingLastPathComponent()
        let process = Process()
        // Its own process group, so that a run that hangs is stopped whole (the script's trap
        // then stops Janus, the peer and Chromium's own group); and default signal handling,
        // not this test process's blocked SIGTERM, which every child would inherit.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["/usr/bin/env", "--default-signal", MediaCall.repository.appendingPathComponent("meson-helpers/netns-run").path,
                             "--", MediaCall.supportScript("janus-interop.sh"), binaries.path, directory.path, page.path,
                             String(room), String(pageSeconds)] + peerArguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let collected = ProcessOutput(output)
        try process.run()
        do {
            try await waitForExit(process, timeout: timeout)
        } catch {
            let group = process.processIdentifier
            kill(-group, SIGTERM)
            try? await Task.sleep(for: .seconds(3))
            kill(-group, SIGKILL)
            throw TestFailure("the interop run did not end within \(timeout):\n\(collected.text)\nchromium (tail):\n"
                + "\((try? String(contentsOf: directory.appendingPathComponent("chromium.log"), encoding: .utf8))?.suffix(3000) ?? "")")
        }
        let read = { (name: String) in (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "(no \(name))" }
        let chromiumLog = read("chromium.log")
        let leftovers = processes(naming: directory.path)
        guard process.terminationStatus == 0 else {
            let said = await collected.all()
            throw TestFailure("the interop run failed (exit \(process.terminationStatus)):\n\(said)\npeer:\n\(read("peer.log"))\n"
                + "chromium (tail):\n\(chromiumLog.suffix(4000))\njanus (tail):\n\(read("janus.log").suffix(2000))")
        }
        let peer: PeerReport
        do {
            peer = try ConfabJSON.decoder().decode(PeerReport.self, from: Data(contentsOf: directory.appendingPathComponent("peer.json")))
        } catch {
            throw TestFailure("no readable report from confab-peer (\(error)); its output:\n\(read("peer.log"))")
        }
        let page = chromiumLog.split(separator: "\n").compactMap(parse)
        let peerSteps = read("peer.log").split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("confab-timeline ") else { return nil }
            return line.split(separator: " ").dropFirst().first.map(String.init)
        }
        try? FileManager.default.removeItem(at: directory)
        return JanusInteropRun(peer: peer, page: page, peerSteps: peerSteps, chromiumLog: chromiumLog, leftovers: leftovers)
    }

    /// `…:INFO:CONSOLE(42)] "confab-interop received feed=1 framesDecoded=30", source: file:///… (42)`
    private static func parse(_ line: Substring) -> PageLine? {
        guard let start = line.range(of: "confab-interop ") else { return nil }
        var rest = line[start.upperBound...]
        if let end = rest.range(of: "\", source:") { rest = rest[..<end.lowerBound] }
        var words = rest.split(separator: " ")
        guard !words.isEmpty else { return nil }
        let kind = String(words.removeFirst())
        var fields: [String: String] = [:]
        for word in words {
            let pair = word.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            fields[String(pair[0])] = String(pair[1]).removingPercentEncoding ?? String(pair[1])
        }
        return PageLine(kind: kind, fields: fields)
    }

    /// Command lines of running processes that contain `fragment`.
    private static func processes(naming fragment: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> String? in
            guard Int32(entry) != nil, let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let command = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return command.contains(fragment) ? "\(entry): \(command.prefix(200))" : nil
        }
    }

    /// What the page reported receiving of `display`'s feed, in order.
    func pageReceived(from display: String) -> [PageLine] {
        page.filter { $0.kind == "received" && $0.fields["display"] == display }
    }
}
