import Foundation
import Glibc
import Synchronization

/// One call's HLS broadcast: a `gst-launch-1.0` child that receives a publisher's RTP (which
/// Janus forwards to it with `rtp_forward`), transcodes VP8/Opus to H.264/AAC (what MPEG-TS
/// and HLS players take) and writes `hlssink2` segments and `playlist.m3u8` into its folder.
final class HLSBroadcast: @unchecked Sendable {
    /// Unguessable (128 random bits): the only protection of a broadcast served without auth.
    let name: String
    let folder: URL
    let audioPort: Int
    let videoPort: Int
    private let process: ChildProcess
    /// Each reader's key to the broadcast (see `viewerPath(for:)`); made on first use.
    private let viewerKeys = Mutex<[String: String]>([:])

    static let playlistName = "playlist.m3u8"

    /// Starts the pipeline listening on two free UDP ports on `host`.
    init(liveFolder: URL, host: String, children: ChildGroup) throws {
        name = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        folder = liveFolder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        audioPort = try Self.freeUDPPort()
        videoPort = try Self.freeUDPPort()
        // The payload types must be in the caps, or the depayloaders never settle when both
        // streams feed one muxer; Janus forwards with the publisher's own (Confab: 96 VP8, 111 Opus).
        let rtp = "application/x-rtp,media=%@,clock-rate=%d,encoding-name=%@,payload=%d"
        let pipeline: [String] = [
            "-e", "hlssink2", "name=hls", "target-duration=1", "playlist-length=6", "max-files=12",
            "location=\(folder.path)/segment%05d.ts", "playlist-location=\(folder.path)/\(Self.playlistName)",
            "udpsrc", "address=\(host)", "port=\(videoPort)", "caps=\(String(format: rtp, "video", 90000, "VP8", 96))", "!",
            "rtpjitterbuffer", "latency=200", "!", "rtpvp8depay", "wait-for-keyframe=true", "!", "vp8dec", "!", "videoconvert", "!",
            // A keyframe a second, so segments are about a second long.
            "openh264enc", "gop-size=30", "!", "h264parse", "!", "queue", "!", "hls.video",
            "udpsrc", "address=\(host)", "port=\(audioPort)", "caps=\(String(format: rtp, "audio", 48000, "OPUS", 111))", "!",
            "rtpjitterbuffer", "latency=200", "!", "rtpopusdepay", "!", "opusdec", "!", "audioconvert", "!", "audioresample", "!",
            "voaacenc", "!", "aacparse", "!", "queue", "!", "hls.audio",
        ]
        process = try ChildProcess.start(
            "gst-launch-1.0", pipeline, logPath: liveFolder.appendingPathComponent("\(name).log").path, in: children)
        // The pipeline is the server's: killed with it (parent-death signal) or stopped by `stop`.
    }

    var isRunning: Bool { !process.hasExited }

    /// `NAME/USER/KEY`: where `userId` watches. Segments are named relative to the playlist, so
    /// every request a player makes carries the viewer, and the server checks `readCall` on
    /// each one: a viewer blocked from the call loses the stream at the next request, while
    /// the key (random, per viewer) keeps anyone from watching as someone else.
    func viewerPath(for userId: String) -> String {
        let key = viewerKeys.withLock { keys in
            if let key = keys[userId] { return key }
            let key = randomHex(bytes: 16)
            keys[userId] = key
            return key
        }
        return "\(name)/\(userId)/\(key)"
    }

    /// True when `key` is the one handed to `userId`.
    func isViewerKey(_ key: String, of userId: String) -> Bool {
        viewerKeys.withLock { $0[userId] } == key
    }

    /// Stops the pipeline (SIGTERM, SIGKILL after 1 s: a live stream has nothing to finish) and
    /// deletes the playlist, the segments and the pipeline's log.
    func stop() async {
        await process.stop(grace: .seconds(1))
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.removeItem(at: logFile)
    }

    private var logFile: URL { folder.deletingLastPathComponent().appendingPathComponent("\(name).log") }

    /// Removes what broadcasts of an earlier run left in `liveFolder`: a broadcast never
    /// survives its server (the Janus forwarders and the pipeline went with it), so anything
    /// there at start is from a server that was killed or crashed.
    static func removeLeftovers(in liveFolder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: liveFolder.path)) ?? []
        for name in names { try? FileManager.default.removeItem(at: liveFolder.appendingPathComponent(name)) }
    }

    /// A port the kernel says is free now; the pipeline binds it a moment later.
    private static func freeUDPPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw BroadcastError.noPort }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = INADDR_ANY
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw BroadcastError.noPort }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

enum BroadcastError: Error, CustomStringConvertible {
    case noPort
    case nobodyPublishing
    case noForwarders
    var description: String {
        switch self {
        case .noPort: "no free UDP port for the broadcast"
        case .nobodyPublishing: "nobody in the call is sending media yet: join with camera or microphone first"
        case .noForwarders: "Janus forwarded none of the publisher's streams (expected mids video0 and audio1)"
        }
    }
}
