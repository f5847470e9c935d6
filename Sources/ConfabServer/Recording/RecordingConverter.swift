import ConfabProtocol
import Foundation

/// Turns one recording session's Janus files (`.mjr`, one per stream and publisher) into one
/// playable Matroska file per publisher: janus-pp-rec extracts each stream, GStreamer muxes a
/// publisher's audio and video together.
struct RecordingConverter: Sendable {
    /// A converted file, before it gets a download URL.
    struct Output: Sendable {
        var publisher: UInt64
        var fileName: String
        var start: Date
        var duration: Double
        var size: Int
    }

    /// Where Janus wrote this session's `.mjr` files.
    var sessionFolder: URL
    /// Where the playable files go (served for download).
    var outputFolder: URL
    /// Names files `<prefix>-<participant>-<publisher>.mkv`.
    var prefix: String
    /// The server's children: the converter's tools are stopped with the server.
    var children: ChildGroup

    /// Converts every publisher found; a publisher whose conversion failed is reported in
    /// `failures` with the reason, never left out silently.
    func convert(participantNames: [UInt64: String]) async -> (outputs: [Output], failures: [String]) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: sessionFolder.path)) ?? []
        var streams: [UInt64: (start: Int64, audio: [String], video: [String])] = [:]
        for file in files.sorted() where file.hasSuffix(".mjr") {
            // videoroom-ROOM-user-PUBLISHER-MICROSECONDS-audio|video-MINDEX.mjr (Janus 1.x names)
            let parts = file.dropLast(4).split(separator: "-")
            guard parts.count >= 6, let userIndex = parts.firstIndex(of: "user"), userIndex + 3 < parts.count,
                let publisher = UInt64(parts[userIndex + 1]), let micros = Int64(parts[userIndex + 2])
            else { continue }
            var entry = streams[publisher] ?? (micros, [], [])
            entry.start = min(entry.start, micros)
            if parts[userIndex + 3] == "audio" { entry.audio.append(file) } else if parts[userIndex + 3] == "video" { entry.video.append(file) }
            streams[publisher] = entry
        }
        if streams.isEmpty {
            return ([], ["no media was recorded in \(sessionFolder.lastPathComponent): nobody was publishing"])
        }
        try? FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        var outputs: [Output] = []
        var failures: [String] = []
        for (publisher, entry) in streams.sorted(by: { $0.key < $1.key }) {
            let name = participantNames[publisher] ?? "publisher"
            do {
                outputs.append(try await convert(publisher: publisher, name: name, start: entry.start, audio: entry.audio.first, video: entry.video.first))
            } catch {
                failures.append("the recording of \(name) could not be converted: \(error)")
            }
        }
        return (outputs, failures)
    }

    private func convert(publisher: UInt64, name: String, start: Int64, audio: String?, video: String?) async throws -> Output {
        let folder = sessionFolder.path
        let log = "\(folder)/convert-\(publisher).log"
        var sources: [String] = []
        var extractedFiles: [String] = []
        // The extracted streams are only a step towards the .mkv: never left behind.
        defer { for file in extractedFiles { try? FileManager.default.removeItem(atPath: file) } }
        if let audio {
            let extracted = "\(folder)/\(publisher)-audio.opus"
            extractedFiles.append(extracted)
            try await ChildProcess.run("janus-pp-rec", ["-o", "\(folder)/\(audio)", extracted], logPath: log, in: children)
            sources += ["filesrc", "location=\(extracted)", "!", "oggdemux", "!", "opusparse", "!", "queue", "!", "mux."]
        }
        if let video {
            let extracted = "\(folder)/\(publisher)-video.webm"
            extractedFiles.append(extracted)
            try await ChildProcess.run("janus-pp-rec", ["-o", "\(folder)/\(video)", extracted], logPath: log, in: children)
            sources += ["filesrc", "location=\(extracted)", "!", "matroskademux", "!", "queue", "!", "mux."]
        }
        let safeName = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" }.prefix(40))
        let fileName = "\(prefix)-\(safeName)-\(publisher).mkv"
        let target = outputFolder.appendingPathComponent(fileName).path
        try await ChildProcess.run(
            "gst-launch-1.0", ["-q", "matroskamux", "name=mux", "!", "filesink", "location=\(target)"] + sources, logPath: log,
            in: children)
        let size = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? Int) ?? 0
        guard size > 0 else { throw RecordingError.emptyOutput(fileName) }
        return Output(
            publisher: publisher, fileName: fileName, start: Date(timeIntervalSince1970: Double(start) / 1_000_000),
            duration: try await Self.duration(of: target, log: log, children: children), size: size)
    }

    /// The file's duration as GStreamer reads it (0 when gst-discoverer-1.0 is missing).
    static func duration(of path: String, log: String, children: ChildGroup? = nil) async throws -> Double {
        guard ChildProcess.find("gst-discoverer-1.0") != nil else { return 0 }
        let report = try await ChildProcess.run("gst-discoverer-1.0", [path], logPath: log, in: children)
        // "Duration: 0:00:05.123000000"
        guard let line = report.split(separator: "\n").first(where: { $0.contains("Duration:") }) else { return 0 }
        let clock = line.split(separator: " ").last.map(String.init) ?? ""
        let fields = clock.split(separator: ":").compactMap { Double($0) }
        guard fields.count == 3 else { return 0 }
        return fields[0] * 3600 + fields[1] * 60 + fields[2]
    }
}

enum RecordingError: Error, CustomStringConvertible {
    case emptyOutput(String)
    var description: String {
        switch self {
        case .emptyOutput(let file): "GStreamer wrote nothing to \(file)"
        }
    }
}
