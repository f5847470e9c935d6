import Foundation

/// `confab-server janus-config`: the configuration of a Janus run as a service of its own
/// (data/systemd/confab-janus.service), written by the same code as the managed Janus's so the
/// two cannot drift. The videoroom admin key is the hex of the key file's bytes (the file is
/// made, 0600, with 32 random bytes when missing); `serve --janus-admin-key-file` reads it the
/// same way.
public enum ServiceJanusConfiguration {
    /// Writes `janus.jcfg`, `janus.transport.websockets.jcfg` and `janus.plugin.videoroom.jcfg`
    /// into `folder` (made if needed) and returns their paths.
    public static func write(
        to folder: String, adminKeyFile: String, options: ManagedJanusOptions, websocketPort: Int
    ) throws -> [String] {
        guard let libraryFolder = ManagedJanusConfiguration.findLibraryFolder() else {
            throw JanusConfigurationError.noVideoRoomPlugin(searched: ManagedJanusConfiguration.libraryFolderCandidates)
        }
        let configuration = ManagedJanusConfiguration(
            libraryFolder: libraryFolder, websocketHost: options.websocketHost, websocketPort: websocketPort,
            adminKey: try adminKey(fromFile: adminKeyFile), mediaAddress: options.mediaAddress,
            rtpPortRange: options.rtpPortRange, sessionTimeoutSeconds: options.sessionTimeoutSeconds)
        let url = URL(fileURLWithPath: folder)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try configuration.write(to: url)
        let files = ["janus.jcfg", "janus.transport.websockets.jcfg", "janus.plugin.videoroom.jcfg"].map {
            url.appendingPathComponent($0).path
        }
        // The videoroom file holds the admin key: readable by the service's user only.
        for file in files { try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file) }
        return files
    }

    /// The admin key kept in `path`, made there when missing.
    public static func adminKey(fromFile path: String) throws -> String {
        try SecretFile.readOrCreate(at: path).map { String(format: "%02x", $0) }.joined()
    }
}

public enum JanusConfigurationError: Error, CustomStringConvertible {
    case noVideoRoomPlugin(searched: [String])

    public var description: String {
        switch self {
        case .noVideoRoomPlugin(let searched):
            "Janus's videoroom plugin was not found in \(searched.joined(separator: ", ")): install Debian's `janus` package"
        }
    }
}
