import Foundation
import Logging

/// The server's media side as configured: the rooms the coordinator asks for, and the managed
/// Janus behind them when this server runs one.
struct CallMedia: Sendable {
    let rooms: JanusRooms
    let managedJanus: ManagedJanus?

    /// Starts what `configuration` asks for; nil means joins carry no media (disabled, or
    /// managed mode on a machine without `janus`, which is logged as a warning).
    static func start(_ configuration: MediaConfiguration, roomSecretPath: String, logger: Logger) async throws -> CallMedia? {
        switch configuration {
        case .disabled:
            logger.notice("media disabled: joins answer without a Janus endpoint")
            return nil
        case .external(let urls, let adminKey):
            guard !urls.isEmpty else {
                logger.warning("no janus node given: calls will have no media")
                return nil
            }
            let roomSecret = try roomSecret(at: roomSecretPath)
            logger.notice("using existing janus nodes", metadata: ["urls": "\(urls.joined(separator: " "))"])
            let nodes = urls.map { url in JanusNode(name: url, logger: logger) { _ in url } }
            let rooms = JanusRooms(nodes: nodes, adminKey: adminKey, roomSecret: roomSecret, logger: logger)
            await rooms.start()
            return CallMedia(rooms: rooms, managedJanus: nil)
        case .managed(let options):
            guard let executable = options.executable ?? ManagedJanus.findExecutable(),
                FileManager.default.isExecutableFile(atPath: executable)
            else {
                logger.warning(
                    "janus is not installed (no `janus` on PATH): calls will have no media. Install the Debian package `janus`, pass --janus ws://HOST:PORT for an existing one, or --no-media to silence this.")
                return nil
            }
            guard let libraryFolder = ManagedJanusConfiguration.findLibraryFolder() else {
                logger.warning(
                    "janus is installed but its videoroom plugin was not found in \(ManagedJanusConfiguration.libraryFolderCandidates.joined(separator: ", ")): calls will have no media")
                return nil
            }
            let janus = try ManagedJanus(
                settings: .init(
                    executable: executable, libraryFolder: libraryFolder, websocketHost: options.websocketHost,
                    mediaAddress: options.mediaAddress, rtpPortRange: options.rtpPortRange,
                    sessionTimeoutSeconds: options.sessionTimeoutSeconds),
                logger: logger)
            do {
                try await janus.start()
            } catch {
                // Keep serving calls: ManagedJanus retries in the background, and joins say why
                // they have no media until it is up.
                logger.error("janus did not start; retrying in the background", metadata: ["error": "\(error)"])
            }
            let node = JanusNode(name: "managed", logger: logger) { timeout in try await janus.readyURL(within: timeout) }
            let rooms = JanusRooms(nodes: [node], adminKey: janus.adminKey, roomSecret: try roomSecret(at: roomSecretPath), logger: logger)
            await rooms.start()
            return CallMedia(rooms: rooms, managedJanus: janus)
        }
    }

    /// Closes the coordinator's Janus session and stops the managed Janus.
    func stop() async {
        await rooms.shutdown()
        await managedJanus?.stop()
    }

    private static func roomSecret(at path: String) throws -> String {
        try SecretFile.readOrCreate(at: path).map { String(format: "%02x", $0) }.joined()
    }
}
