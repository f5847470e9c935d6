import ArgumentParser
import FoundationEssentials

/// `confab-peer janus --url WS_URL --room N [--display NAME]`: joins a plain Janus VideoRoom
/// directly, with no coordinator. It publishes the test camera and microphone (the media
/// options apply: `--pattern ball`, `--join-camera-off` …), receives every other publisher in
/// the room, and reports per remote feed what it received over time (size, frame rate,
/// bitrate), as `join --media test` does. For interoperability with other Janus clients
/// (janus.js in a browser) and as a bot in someone else's room.
struct JanusRoomCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "janus",
        abstract: "Join a plain Janus VideoRoom directly (no coordinator): publish test media, receive everyone, report what arrived.")

    @Option(help: "Janus's WebSocket API, e.g. ws://127.0.0.1:8188.")
    var url: String

    @Option(help: "The VideoRoom's number.")
    var room: UInt64

    @Option(help: "The name the others in the room see.")
    var display = "confab-peer"

    @Flag(name: .customLong("create-room"), help: "Create the room first if it does not exist (a plain room: no token, no secret).")
    var createRoom = false

    @Option(help: "Seconds to stay in the room (0: until SIGINT or SIGTERM).")
    var duration: Double = 0

    /// `--report`, `--verbose` and the media options, shared with the root (the coordinator's
    /// `--server`, `--user` and `--token` are not used here).
    @OptionGroup var options: PeerOptions

    func validate() throws {
        guard url.hasPrefix("ws://") || url.hasPrefix("wss://") else { throw ValidationError("--url takes Janus's WebSocket address, ws://HOST:PORT") }
        // Janus reads room 0 as "pick one for me".
        guard room > 0 else { throw ValidationError("--room takes a room number above 0") }
        guard duration >= 0 else { throw ValidationError("--duration takes seconds, 0 or more") }
        if options.media.screen != nil { throw ValidationError("--screen is for calls through the coordinator") }
    }

    func run() async throws {
        var media = options.media
        // Always test media here: the room is joined to send and receive.
        media.media = .test
        guard let settings = media.settings else { throw ValidationError("the media options could not be read") }
        let plan = JanusRoomPlan(url: url, room: room, display: display, createRoom: createRoom, duration: duration > 0 ? seconds(duration) : nil,
                                 report: options.report, verbose: options.verbose)
        try await JanusRoomPeer.run(plan, media: settings)
    }
}

/// What `JanusRoomCommand` parsed, as plain values for the main actor.
struct JanusRoomPlan: Sendable {
    let url: String
    let room: UInt64
    let display: String
    let createRoom: Bool
    /// nil: until stopped by a signal.
    let duration: Duration?
    let report: String?
    let verbose: Bool
}
