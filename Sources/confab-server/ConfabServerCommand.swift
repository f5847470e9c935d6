import ArgumentParser
import ConfabServer
import Foundation
import Logging
import ProcessSignals

/// `confab-server`: runs the call coordinator, or prints a token with `confab-server token USER`.
/// (Started from main.swift.)
struct ConfabServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confab-server",
        abstract: "The confab call coordinator.",
        subcommands: [Serve.self, Token.self, JanusConfig.self],
        defaultSubcommand: Serve.self)
}

/// Where the database and secret are, shared by both subcommands.
struct StorageOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "SQLite file, or a PostgreSQL URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full] "
            + "or postgres://USER@/DATABASE?host=/run/postgresql (a socket folder). Default: $XDG_DATA_HOME/confab/server.sqlite.",
        valueName: "path-or-url"))
    var db: String?

    @Option(name: .customLong("data-dir"),
            help: "Folder for secrets, recordings and broadcasts (default: the SQLite file's folder, or $XDG_DATA_HOME/confab with PostgreSQL).")
    var dataDir: String?

    @Option(name: .customLong("secret-file"), help: "Token signing secret (default: server.secret in the data folder).")
    var secretFile: String?

    @Option(name: .customLong("room-secret-file"),
            help: "Secret of the Janus rooms (default: janus-room.secret in the data folder). Replicas on one database share it.")
    var roomSecretFile: String?

    func validate() throws {
        _ = try database()
    }

    func database() throws -> DatabaseLocation {
        guard let db else { return .sqlite(path: ServerConfiguration.defaultDatabasePath()) }
        do {
            return try DatabaseLocation(parsing: db)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// After `validate`, so `--db` is known to parse.
    func dataFolder() throws -> String { try dataDir ?? ServerConfiguration.defaultDataFolder(for: database()) }
    func secretPath() throws -> String { try secretFile ?? ServerConfiguration.defaultSecretPath(inDataFolder: dataFolder()) }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server (the default).")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one.") var port = 8630
    @OptionGroup var storage: StorageOptions
    @Flag(name: .customLong("dev-auth"), help: "Accept any user id without a token (local use only).")
    var devAuth = false
    @Flag(name: .customLong("open-calls"),
          help: "Let any signed-in user read and join any call without being a member or having its link (local use only).")
    var openCalls = false
    @Option(name: .customLong("ring-timeout"), help: "Seconds before an unanswered ring is cancelled.")
    var ringTimeout: Double = 30
    @Option(name: .customLong("health-interval"), help: "Seconds between health checks (heartbeats).")
    var healthInterval: Double = 10
    @OptionGroup var media: MediaOptions
    @Option(name: .customLong("tls-cert"),
            help: ArgumentHelp("Serve wss:// and https:// with this certificate (PEM, intermediates after it); needs --tls-key.", valueName: "pem"))
    var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The private key of --tls-cert (PEM).", valueName: "pem"))
    var tlsKey: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0-65535") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard ringTimeout > 0, healthInterval > 0 else { throw ValidationError("timeouts must be positive") }
        try media.validate()
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .notice
            return handler
        }
        let configuration = ServerConfiguration(
            host: host, port: port, database: try storage.database(), dataFolder: try storage.dataFolder(), secretPath: try storage.secretPath(),
            roomSecretPath: storage.roomSecretFile, devAuth: devAuth, openCalls: openCalls,
            ringAutoCancelTimeout: .milliseconds(Int(ringTimeout * 1000)),
            healthCheckInterval: .milliseconds(Int(healthInterval * 1000)), media: try media.configuration(),
            tls: tlsCert.flatMap { cert in tlsKey.map { ServerTLS(certificatePath: cert, privateKeyPath: $0) } })
        let scheme = configuration.webSocketScheme
        let server = Task {
            try await ConfabServer(configuration: configuration).run { host, port in
                // Scripts wait for exactly this line. Written unbuffered so a pipe sees it at once.
                FileHandle.standardOutput.write(Data("listening on \(scheme)://\(host):\(port)\n".utf8))
            }
        }
        // SIGTERM and SIGINT end the server the orderly way, so it stops its Janus on the way out
        // (also one sent while it started: it was kept for this).
        StopSignals.process.whenStopAsked { _ in
            server.cancel()
            StopSignals.exitUnlessStopped(within: 15)
        }
        try await server.value
    }
}

struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a token for USER signed with the server secret.")

    @Argument(help: "The user id the token is for.") var user: String
    @OptionGroup var storage: StorageOptions
    @Option(help: "Lifetime in seconds (default: no expiry).") var lifetime: Double?

    func run() async throws {
        StopSignals.process.whenStopAsked(StopSignals.exitAtOnce)
        let authority = try await TokenAuthority.loadingSecret(at: try storage.secretPath())
        print(try await authority.token(for: user, lifetime: lifetime))
    }
}

struct JanusConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "janus-config",
        abstract: "Write the configuration of a Janus run as its own service (data/systemd/confab-janus.service).",
        discussion: "The same files the managed Janus gets: websockets transport and videoroom plugin only, rooms creatable with the admin key only.")

    @Option(help: "Folder to write janus.jcfg and its companions into (Janus's --configs-folder).") var folder: String
    @Option(name: .customLong("admin-key-file"), help: "The videoroom admin key; made (0600) when missing. Give confab-server the same file.")
    var adminKeyFile: String
    @Option(name: .customLong("janus-host"), help: "Address Janus's WebSocket listens on.") var janusHost = "127.0.0.1"
    @Option(name: .customLong("janus-port"), help: "Port Janus's WebSocket listens on.") var janusPort = 8188
    @Option(name: .customLong("media-address"), help: ArgumentHelp("The only address Janus gathers ICE candidates on.", valueName: "ADDR"))
    var mediaAddress: String?
    @Option(name: .customLong("rtp-ports"), help: ArgumentHelp("UDP port range.", valueName: "MIN-MAX")) var rtpPorts = "20000-40000"

    func validate() throws {
        guard (1...65535).contains(janusPort) else { throw ValidationError("--janus-port must be 1-65535") }
        _ = try MediaOptions.portRange(rtpPorts)
    }

    func run() throws {
        StopSignals.process.whenStopAsked(StopSignals.exitAtOnce)
        let options = ManagedJanusOptions(
            websocketHost: janusHost, mediaAddress: mediaAddress, rtpPortRange: try MediaOptions.portRange(rtpPorts))
        for file in try ServiceJanusConfiguration.write(to: folder, adminKeyFile: adminKeyFile, options: options, websocketPort: janusPort) {
            print(file)
        }
    }
}

extension StopSignals {
    /// Ends the process if the orderly stop has not ended it within `seconds`. An orderly stop
    /// takes well under a second (Janus gets 3 s before SIGKILL). Kept as a backstop for a stop
    /// that hangs: the one seen in CI (a server told to stop right after saying "listening" that
    /// never did) was a lost signal (StopSignals). The children it started get their
    /// parent-death signal (`ChildProcess`), so none outlives it either way.
    static func exitUnlessStopped(within seconds: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
            let message = "confab-server: not stopped \(seconds) s after the signal; exiting\n"
            message.withCString { _ = write(STDERR_FILENO, $0, strlen($0)) }
            exit(2)
        }
    }
}
