import ArgumentParser
import ConfabCore
import ConfabDesktop
import Foundation

/// `confab`: the Confab desktop app.
@main
struct ConfabApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confab",
        abstract: "Video calls on the Linux desktop.")

    @Option(help: "Call server address.")
    var server: String = ProcessInfo.processInfo.environment["CONFAB_SERVER"] ?? AppOptions.defaultServerURL

    @Option(help: "Your user id (default: your login name).")
    var user: String = ProcessInfo.processInfo.environment["CONFAB_USER"] ?? ProcessInfo.processInfo.environment["USER"] ?? "me"

    @Option(help: "Your sign-in token from `confab-server token USER` (not needed with a --dev-auth server).")
    var token: String?

    @Option(help: "Open the lobby of this call, as TYPE:ID (e.g. default:standup).")
    var call: String?

    @Option(help: "Restrict audio/video (ICE) to this local IP address.")
    var mediaAddress: String?

    @Flag(help: "Add a test camera and test microphones (also: CONFAB_TEST_DEVICES=1).")
    var testDevices = false

    @Option(help: .hidden)
    var previewSize: String = ProcessInfo.processInfo.environment["CONFAB_PREVIEW_SIZE"] ?? "640x360"

    func validate() throws {
        if let call, CallID(parsing: call) == nil {
            throw ValidationError("--call takes TYPE:ID, e.g. default:standup (letters, digits, - and _)")
        }
        if parsedPreviewSize == nil { throw ValidationError("preview size is WIDTHxHEIGHT, e.g. 640x360") }
    }

    private var parsedPreviewSize: (Int, Int)? {
        let parts = previewSize.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 >= 16 && $0 <= 7680 }) else { return nil }
        return (parts[0], parts[1])
    }

    func run() throws {
        let testDevicesFromEnvironment = ProcessInfo.processInfo.environment["CONFAB_TEST_DEVICES"] == "1"
        let size = parsedPreviewSize ?? (640, 360)
        let options = AppOptions(serverURL: server, user: User(id: user), token: token ?? ProcessInfo.processInfo.environment["CONFAB_TOKEN"], call: call.flatMap(CallID.init(parsing:)),
                                 useTestDevices: testDevices || testDevicesFromEnvironment, mediaAddress: mediaAddress,
                                 previewWidth: size.0, previewHeight: size.1)
        let status = MainActor.assumeIsolated { ConfabApplication(options: options).run() }
        if status != 0 { throw ExitCode(status) }
    }
}
