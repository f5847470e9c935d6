import ArgumentParser
import ConfabClient
import ConfabCore
import ConfabDesktop
import FoundationEssentials
import GLibBridge

/// `confab`: the Confab desktop app.
@main
struct ConfabApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confab",
        abstract: "Video calls on the Linux desktop.")

    @Option(help: ArgumentHelp(
        "Call server address, or several replicas comma-separated, tried in turn "
            + "(default: $CONFAB_SERVER, else Preferences, else \(AppOptions.defaultServerURL)).",
        valueName: "url[,url…]"))
    var server: String?

    @Option(name: .customLong("ca-file"),
            help: ArgumentHelp("Trust wss:// servers whose certificate comes from the CA in this PEM file (a private CA) instead of the system's CAs.",
                               valueName: "pem"))
    var caFile: String?

    @Option(help: "Your user id (default: $CONFAB_USER, else Preferences, else your login name).")
    var user: String?

    @Option(help: "Your sign-in token from `confab-server token USER` (not needed with a --dev-auth server).")
    var token: String?

    @Option(help: "Open the lobby of this call, as TYPE:ID (e.g. default:standup).")
    var call: String?

    @Option(help: "Restrict audio/video (ICE) to this local IP address.")
    var mediaAddress: String?

    @Flag(help: "Add a test camera and test microphones (also: CONFAB_TEST_DEVICES=1).")
    var testDevices = false

    @Flag(name: .customLong("gapplication-service"),
          help: "Start in the background, signed in, with no window: calls ring as notifications (D-Bus activation, autostart).")
    var background = false

    @Argument(help: "confab: links to open, e.g. confab://join/default/standup (a running Confab opens them).")
    var links: [String] = []

    @Option(help: "The largest size your camera is sent at, WIDTHxHEIGHT (what is sent follows the connection up to it).")
    var maxVideoSize: String = ProcessInfo.processInfo.environment["CONFAB_MAX_VIDEO_SIZE"] ?? "1280x720"

    @Option(help: .hidden)
    var previewSize: String = ProcessInfo.processInfo.environment["CONFAB_PREVIEW_SIZE"] ?? "640x360"

    func validate() throws {
        if let call {
            do {
                _ = try CallID.parse(userInput: call)
            } catch {
                throw ValidationError("--call takes TYPE:ID, e.g. default:standup: \(error.description)")
            }
        }
        if let bad = links.first(where: { CallLink($0) == nil }) {
            throw ValidationError("\(bad) is not a Confab link; links look like confab://join/default/standup")
        }
        if let server = server ?? ProcessInfo.processInfo.environment["CONFAB_SERVER"] {
            do {
                _ = try ServerEndpoints(parsing: server)
            } catch {
                throw ValidationError("--server: \(error.description)")
            }
        }
        if let caFile {
            do {
                try ServerTrust.certificateAuthorities(file: caFile).validate()
            } catch {
                throw ValidationError("--ca-file: \(error.description)")
            }
        }
        if VideoSize(parsing: maxVideoSize) == nil { throw ValidationError("--max-video-size takes WIDTHxHEIGHT, e.g. 640x360") }
        if parsedPreviewSize == nil { throw ValidationError("preview size is WIDTHxHEIGHT, e.g. 640x360") }
    }

    private var parsedPreviewSize: (Int, Int)? {
        let parts = previewSize.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 >= 16 && $0 <= 7680 }) else { return nil }
        return (parts[0], parts[1])
    }

    func run() throws {
        MainActor.assumeIsolated { ConfabApplication.prepareEnvironment() }
        // Before GStreamer's, GTK's and D-Bus's threads start (see ProcessHeap). Two arenas took
        // 4–10 MiB off the app in a call, its CPU unchanged (bench-media, N = 2 and 4).
        // Not `restartWithGLibSlicesFromMalloc`: starting again cost the lobby's first picture
        // 40 ms (bench-lobby, 0.34–0.38 → 0.40–0.44 s) for 2–3 MiB in a four-person call.
        ProcessHeap.limitArenas(to: 2)
        let testDevicesFromEnvironment = ProcessInfo.processInfo.environment["CONFAB_TEST_DEVICES"] == "1"
        let size = parsedPreviewSize ?? (640, 360)
        let environment = ProcessInfo.processInfo.environment
        let status = MainActor.assumeIsolated {
            // Command line, then environment, then what the user saved in Preferences.
            let saved = AppPreferences()
            let serverText = server ?? environment["CONFAB_SERVER"] ?? saved.serverURL ?? AppOptions.defaultServerURL
            // The command line and environment were checked in validate(); what Preferences hold
            // is used as a list when it reads as one, else tried as it was typed.
            let servers = (try? ServerEndpoints(parsing: serverText)) ?? ServerEndpoints(serverText)
            var options = AppOptions(servers: servers,
                                     user: User(id: user ?? environment["CONFAB_USER"] ?? saved.userID ?? environment["USER"] ?? "me"),
                                     token: token ?? environment["CONFAB_TOKEN"] ?? saved.token,
                                     useTestDevices: testDevices || testDevicesFromEnvironment, mediaAddress: mediaAddress,
                                     previewWidth: size.0, previewHeight: size.1)
            // --call is a link like any other, so a running Confab opens it too.
            options.links = links + (call.flatMap { try? CallID.parse(userInput: $0) }.map { ["confab://join/\($0.type.rawValue)/\($0.id)"] } ?? [])
            options.runsInBackground = background
            options.serverTrust = caFile.map { ServerTrust.certificateAuthorities(file: $0) } ?? .system
            options.maximumVideoSize = VideoSize(parsing: maxVideoSize) ?? options.maximumVideoSize
            // A user other than the one this desktop session belongs to runs as its own instance.
            let explicitUser = user ?? environment["CONFAB_USER"]
            options.isSingleInstance = explicitUser == nil || explicitUser == (saved.userID ?? environment["USER"])
            return ConfabApplication(options: options).run()
        }
        if status != 0 { throw ExitCode(status) }
    }
}
