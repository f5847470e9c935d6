import ArgumentParser
import ConfabServer

/// Where calls' media goes: a managed Janus (default), an existing one, or none.
struct MediaOptions: ParsableArguments {
    @Option(name: .customLong("janus"), help: ArgumentHelp("Use the Janus already running at this WebSocket URL instead of starting one.", valueName: "ws://HOST:PORT"))
    var janusURL: String?

    @Option(name: .customLong("janus-admin-key"), help: "The videoroom admin_key of the Janus given with --janus, if it has one.")
    var janusAdminKey: String?

    @Flag(name: .customLong("no-media"), help: "No media: joins answer without a Janus endpoint.")
    var noMedia = false

    @Option(name: .customLong("media-address"), help: ArgumentHelp("The only address the managed Janus gathers ICE candidates on.", valueName: "ADDR"))
    var mediaAddress: String?

    @Option(name: .customLong("janus-host"), help: "Address the managed Janus's WebSocket listens on (clients connect there).")
    var janusHost = "127.0.0.1"

    @Option(name: .customLong("janus-binary"), help: "The janus executable (default: janus on PATH).")
    var janusBinary: String?

    @Option(name: .customLong("rtp-ports"), help: ArgumentHelp("UDP port range of the managed Janus.", valueName: "MIN-MAX"))
    var rtpPorts = "20000-40000"

    func validate() throws {
        if noMedia, janusURL != nil { throw ValidationError("--no-media and --janus exclude each other") }
        if let janusURL, !(janusURL.hasPrefix("ws://") || janusURL.hasPrefix("wss://")) {
            throw ValidationError("--janus wants a WebSocket URL such as ws://127.0.0.1:8188")
        }
        if janusAdminKey != nil, janusURL == nil {
            throw ValidationError("--janus-admin-key goes with --janus (the managed Janus gets a generated key)")
        }
        _ = try portRange()
    }

    func configuration() throws -> MediaConfiguration {
        if noMedia { return .disabled }
        if let janusURL { return .external(url: janusURL, adminKey: janusAdminKey) }
        return .managed(ManagedJanusOptions(
            executable: janusBinary, websocketHost: janusHost, mediaAddress: mediaAddress, rtpPortRange: try portRange()))
    }

    private func portRange() throws -> ClosedRange<Int> {
        let bounds = rtpPorts.split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, 1024 <= bounds[0], bounds[0] < bounds[1], bounds[1] <= 65535 else {
            throw ValidationError("--rtp-ports wants MIN-MAX within 1024-65535, e.g. 20000-40000")
        }
        return bounds[0]...bounds[1]
    }
}
