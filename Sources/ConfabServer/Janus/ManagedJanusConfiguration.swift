import Foundation

/// The configuration files of the Janus that confab-server runs: the websockets transport and
/// the videoroom plugin and nothing else, written into a private folder (Janus reads every
/// `*.jcfg` there, so it never sees the system's /etc/janus).
struct ManagedJanusConfiguration: Sendable {
    /// Folder holding Janus's `plugins/`, `transports/`, `events/` and `loggers/`.
    var libraryFolder: String
    var websocketHost: String
    var websocketPort: Int
    /// Required in every videoroom `create`, so only the coordinator can make rooms.
    var adminKey: String
    /// When set, Janus gathers ICE candidates on this address only (`ice_enforce_list`).
    var mediaAddress: String?
    var rtpPortRange: ClosedRange<Int>
    var sessionTimeoutSeconds: Int

    /// The plugin and transport Confab needs; every other one found is disabled.
    static let videoRoomPlugin = "libjanus_videoroom.so"
    static let websocketTransport = "libjanus_websockets.so"

    /// Where distributions install Janus's modules; the first holding the videoroom wins.
    static let libraryFolderCandidates = [
        "/usr/lib/x86_64-linux-gnu/janus", "/usr/lib/aarch64-linux-gnu/janus", "/usr/lib64/janus", "/usr/lib/janus",
        "/usr/local/lib/janus", "/opt/janus/lib/janus",
    ]

    static func findLibraryFolder() -> String? {
        libraryFolderCandidates.first {
            FileManager.default.fileExists(atPath: "\($0)/plugins/\(videoRoomPlugin)")
        }
    }

    /// Writes `janus.jcfg`, `janus.transport.websockets.jcfg` and `janus.plugin.videoroom.jcfg`.
    func write(to folder: URL) throws {
        try mainFile(configsFolder: folder.path).write(to: folder.appendingPathComponent("janus.jcfg"), atomically: true, encoding: .utf8)
        try websocketsFile.write(
            to: folder.appendingPathComponent("janus.transport.websockets.jcfg"), atomically: true, encoding: .utf8)
        try videoRoomFile.write(to: folder.appendingPathComponent("janus.plugin.videoroom.jcfg"), atomically: true, encoding: .utf8)
    }

    func mainFile(configsFolder: String) -> String {
        var nat = ["nice_debug = false"]
        if let mediaAddress {
            // Janus never gathers loopback candidates, so tests give it a /32 address in a
            // network namespace and must keep it off every other interface (ARCHITECTURE.md).
            nat.append("ice_enforce_list = \(quoted(mediaAddress))")
        }
        return """
            # Written by confab-server for the Janus it manages; changes are lost on restart.
            general: {
            \tconfigs_folder = \(quoted(configsFolder))
            \tplugins_folder = \(quoted(libraryFolder + "/plugins"))
            \ttransports_folder = \(quoted(libraryFolder + "/transports"))
            \tevents_folder = \(quoted(libraryFolder + "/events"))
            \tloggers_folder = \(quoted(libraryFolder + "/loggers"))
            \tdebug_level = 4
            \tdebug_colors = false
            \tserver_name = "confab"
            \t# Clients send keepalives well inside this (every 25 s or less).
            \tsession_timeout = \(sessionTimeoutSeconds)
            }
            media: {
            \trtp_port_range = "\(rtpPortRange.lowerBound)-\(rtpPortRange.upperBound)"
            }
            nat: {
            \(nat.map { "\t" + $0 }.joined(separator: "\n"))
            }
            plugins: {
            \tdisable = \(quoted(disabledModules(in: "plugins", keeping: Self.videoRoomPlugin)))
            }
            transports: {
            \tdisable = \(quoted(disabledModules(in: "transports", keeping: Self.websocketTransport)))
            }
            loggers: {
            \tdisable = \(quoted(disabledModules(in: "loggers", keeping: nil)))
            }
            events: {
            \tbroadcast = false
            }

            """
    }

    var websocketsFile: String {
        """
        # Written by confab-server. Pings after 5 s of silence and drops a client 5 s later without
        # a pong: a frozen client leaves in ~7 s instead of the 60 s session timeout.
        general: {
        \tjson = "compact"
        \tws = true
        \tws_port = \(websocketPort)
        \tws_ip = \(quoted(websocketHost))
        \twss = false
        \tpingpong_trigger = 5
        \tpingpong_timeout = 5
        }
        admin: {
        \tadmin_ws = false
        \tadmin_wss = false
        }

        """
    }

    var videoRoomFile: String {
        """
        # Written by confab-server. No static rooms: the coordinator creates one per call.
        general: {
        \tadmin_key = \(quoted(adminKey))
        \tlock_rtp_forward = true
        }

        """
    }

    /// Every `*.so` module in `kind` except `keeping`, comma-separated as Janus wants them.
    private func disabledModules(in kind: String, keeping: String?) -> String {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: "\(libraryFolder)/\(kind)")) ?? []
        return files.filter { $0.hasSuffix(".so") && $0 != keeping }.sorted().joined(separator: ",")
    }

    /// libconfig string literal.
    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
