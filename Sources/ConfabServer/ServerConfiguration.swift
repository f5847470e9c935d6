import Foundation

/// Everything `confab-server` can be told on its command line, plus the timings tests shorten.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port; `ConfabServer.run` reports the one it got.
    public var port: Int
    /// Where calls are kept: an SQLite file (the default) or a PostgreSQL database.
    public var database: DatabaseLocation
    /// Holds the token and room secrets, recordings (`recordings/`) and broadcasts (`live/`):
    /// by default the SQLite file's folder, or `$XDG_DATA_HOME/confab` beside PostgreSQL.
    public var dataFolder: String
    /// The HS256 signing secret; created (0600) on first use.
    public var secretPath: String
    /// The secret set on every Janus room, kept across restarts so rooms an external Janus still
    /// holds stay editable; created (0600) on first use. Replicas sharing Janus nodes must share
    /// it, or one cannot admit to a room another made. Default: `janus-room.secret` in the data folder.
    public var roomSecretPath: String
    /// Accept a bare user id in `hello`, without a token. For local use only.
    public var devAuth: Bool
    /// Let every signed-in user read and join every call as a plain user, as before calls were
    /// private (issue 16, item 8). For local development only (`make run`, where two users on one
    /// machine open the same `default:standup`); off by default.
    public var openCalls: Bool
    /// How long a ring lasts before the server sends `call.missed` (stream-video's autoCancelTimeoutMs).
    public var ringAutoCancelTimeout: Duration
    /// Period of `health.check` events and WebSocket pings; a client that misses a ping's pong
    /// for this long is dropped.
    public var healthCheckInterval: Duration
    /// Largest message accepted; larger ones get a `messageTooLarge` error.
    public var maxMessageSize: Int
    /// Janus for calls' media; managed (a child process) unless told otherwise.
    public var media: MediaConfiguration
    /// The certificate and key to serve `wss://` and `https://` with; nil: plain `ws://`
    /// and `http://` (loopback, or behind a reverse proxy that terminates TLS).
    public var tls: ServerTLS?

    public init(
        host: String = "127.0.0.1", port: Int = 8630,
        database: DatabaseLocation = .sqlite(path: ServerConfiguration.defaultDatabasePath()), dataFolder: String? = nil,
        secretPath: String? = nil, roomSecretPath: String? = nil, devAuth: Bool = false, openCalls: Bool = false, ringAutoCancelTimeout: Duration = .seconds(30),
        healthCheckInterval: Duration = .seconds(10), maxMessageSize: Int = 64 * 1024,
        media: MediaConfiguration = .managed(ManagedJanusOptions()), tls: ServerTLS? = nil
    ) {
        self.host = host
        self.port = port
        self.database = database
        let dataFolder = dataFolder ?? Self.defaultDataFolder(for: database)
        self.dataFolder = dataFolder
        self.secretPath = secretPath ?? Self.defaultSecretPath(inDataFolder: dataFolder)
        self.roomSecretPath = roomSecretPath ?? URL(fileURLWithPath: dataFolder).appendingPathComponent("janus-room.secret").path
        self.devAuth = devAuth
        self.openCalls = openCalls
        self.ringAutoCancelTimeout = ringAutoCancelTimeout
        self.healthCheckInterval = healthCheckInterval
        self.maxMessageSize = maxMessageSize
        self.media = media
        self.tls = tls
    }

    /// `ws` or `wss`: what clients put in front of the address.
    public var webSocketScheme: String { tls == nil ? "ws" : "wss" }

    /// `$XDG_DATA_HOME/confab/server.sqlite`, else `~/.local/share/confab/server.sqlite`.
    public static func defaultDatabasePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
            dataHome = home + "/.local/share"
        }
        return dataHome + "/confab/server.sqlite"
    }

    /// The SQLite file's folder; with PostgreSQL, the folder the default SQLite file would be in.
    public static func defaultDataFolder(
        for database: DatabaseLocation, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let sqlitePath: String
        switch database {
        case .sqlite(let path): sqlitePath = path
        case .postgres: sqlitePath = defaultDatabasePath(environment: environment)
        }
        return URL(fileURLWithPath: sqlitePath).deletingLastPathComponent().path
    }

    /// `server.secret` in the data folder. Replicas sharing one PostgreSQL must share this file
    /// too (or be given the same one with --secret-file), or tokens from one are refused by another.
    public static func defaultSecretPath(inDataFolder dataFolder: String) -> String {
        URL(fileURLWithPath: dataFolder).appendingPathComponent("server.secret").path
    }
}
