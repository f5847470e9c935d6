import ArgumentParser
import ConfabClient
import ConfabCore
import FoundationEssentials
import Logging

/// `confab-peer`: a headless confab client for tests, benchmarks and bots. It signs in to a
/// coordinator, does one thing (join, answer a ring, ring someone) and writes a JSON report of
/// what it saw: calling states, participants, events and the outcome. With `--media test` it
/// also sends a test camera and tone through the media server and reports what it received.
/// (`PeerMain` runs it.)
struct ConfabPeer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confab-peer",
        abstract: "A headless confab client: joins, rings or answers, and reports what it saw as JSON.",
        subcommands: [JoinCommand.self, AnswerCommand.self, RingCommand.self, JanusRoomCommand.self])

    // Declared here too so they can come before the subcommand, as in
    // `confab-peer --server URL --user bob answer`; subcommands receive the same values (the
    // same type: ArgumentParser shares values between parent and child by declaring type).
    @OptionGroup var options: PeerOptions
}

/// Options of the coordinator commands (join, answer, ring), which the root takes too.
/// `--server` and `--user` are checked when a coordinator command runs (`settings()`), not at
/// parsing: the root parses these options for every subcommand, and `janus` needs no coordinator.
struct PeerOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The coordinator, e.g. ws://127.0.0.1:8630 or wss://confab.example.org (the /ws path is added when missing); "
            + "several replicas comma-separated, tried in turn. Default: $CONFAB_SERVER. Required by join, answer and ring.",
        valueName: "url[,url…]"))
    var server: String?

    @Option(name: .customLong("ca-file"),
            help: ArgumentHelp("Trust wss:// servers whose certificate comes from the CA in this PEM file (a private CA) instead of the system's CAs.",
                               valueName: "pem"))
    var caFile: String?

    @Option(help: "The user to sign in as; required by join, answer and ring.")
    var user: String?

    @Option(help: "A token from `confab-server token USER`; not needed with a --dev-auth server.")
    var token: String?

    @Option(help: "Where to write the JSON report: a file, or - for standard output.")
    var report: String?

    @Flag(help: "Log the client's connection and frame handling to standard error.")
    var verbose = false

    @OptionGroup(title: "Media") var media: PeerMediaOptions

    /// The plain values, safe to hand to the main actor; refuses what a coordinator command cannot run without.
    func settings() throws -> PeerSettings {
        guard let server = server ?? ProcessInfo.processInfo.environment["CONFAB_SERVER"] else {
            throw ValidationError("Missing expected argument '--server <server>'")
        }
        guard let user else { throw ValidationError("Missing expected argument '--user <user>'") }
        try media.validateMediaIsSent()
        let servers: ServerEndpoints
        do {
            servers = try ServerEndpoints(parsing: server).map(Self.serverURL)
        } catch {
            throw ValidationError("--server: \(error.description)")
        }
        let trust = caFile.map { ServerTrust.certificateAuthorities(file: $0) } ?? .system
        do {
            try trust.validate()
        } catch {
            throw ValidationError("--ca-file: \(error.description)")
        }
        return PeerSettings(servers: servers, trust: trust, user: user, token: token, report: report, verbose: verbose,
                            media: media.settings)
    }

    /// The address with the WebSocket path the server serves.
    static func serverURL(_ server: String) -> String {
        guard var components = URLComponents(string: server), components.path.isEmpty || components.path == "/" else { return server }
        components.path = "/ws"
        return components.string ?? server
    }
}

/// What `PeerOptions` parsed.
struct PeerSettings: Sendable {
    let servers: ServerEndpoints
    let trust: ServerTrust
    let user: String
    let token: String?
    let report: String?
    let verbose: Bool
    /// nil: coordinator only.
    let media: PeerMediaSettings?
}

/// Reads `type:id`, explaining what is wrong when it can't.
func parseCallID(_ text: String) throws -> CallID {
    do {
        return try CallID.parse(text)
    } catch {
        throw ValidationError("'\(text)' is not a call id of the form TYPE:ID (e.g. default:standup): \(error.description)")
    }
}

/// Splits "a,b" into user ids, dropping blanks.
func parseMembers(_ text: String?) -> [String] {
    (text ?? "").split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
}

/// `--duration`/`--timeout` seconds as a Duration.
func seconds(_ value: Double) -> Duration {
    .milliseconds(Int((max(value, 0) * 1000).rounded()))
}

/// Runs one peer session on the main actor: connects, runs `body`, writes the report, and
/// turns failures into a message and a non-zero exit code.
@MainActor
func runPeer(_ options: PeerSettings, command: String, call: CallID?,
             _ body: @MainActor (PeerSession) async throws -> Void) async throws {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = options.verbose ? .debug : .warning
        return handler
    }
    var clientOptions = CoordinatorClient.Options()
    clientOptions.clientName = "confab-peer"
    clientOptions.serverTrust = options.trust
    let client = CoordinatorClient(servers: options.servers, userID: options.user, token: options.token, options: clientOptions)
    let media = options.media.map { PeerMedia(client: client, settings: $0) }
    let session = PeerSession(client: client, command: command, call: call, media: media)
    session.stopOnSignals()
    var failure: (any Error)?
    do {
        try await session.start()
        try await body(session)
    } catch {
        failure = error
        session.fail(error)
    }
    await session.finish()
    await client.disconnect()
    do {
        try session.writeReport(to: options.report)
    } catch {
        PeerSession.say("could not write the report: \(error)")
        throw ExitCode(2)
    }
    if let failure {
        PeerSession.say("error: \(failure)")
        throw ExitCode(1)
    }
}
