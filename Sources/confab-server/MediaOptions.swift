import ArgumentParser
import ConfabServer
import Foundation

/// Where calls' media goes: a managed Janus (default), existing ones, or none.
struct MediaOptions: ParsableArguments {
    @Option(name: .customLong("janus"), help: ArgumentHelp("Use the Janus already running at this WebSocket URL instead of starting one.", valueName: "ws://HOST:PORT"))
    var janusURL: String?

    @Option(name: .customLong("janus-node"), parsing: .singleValue,
            help: ArgumentHelp(
                "A Janus already running at this WebSocket URL, one of several (repeat the option): each call's room goes on the live one with the least load, and moves when its node dies.",
                valueName: "ws://HOST:PORT"))
    var janusNodes: [String] = []

    @Option(name: .customLong("janus-admin-key"), help: "The videoroom admin_key of the Janus given with --janus or --janus-node (the same on every node), if it has one.")
    var janusAdminKey: String?

    @Option(name: .customLong("janus-admin-key-file"),
            help: "The key file `confab-server janus-config --admin-key-file` wrote for the Janus given with --janus or --janus-node (keeps the key out of `ps`; one key for every node).")
    var janusAdminKeyFile: String?

    /// Every existing Janus given: `--janus` first, then each `--janus-node`.
    var existingJanusURLs: [String] { (janusURL.map { [$0] } ?? []) + janusNodes }

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
        if noMedia, !existingJanusURLs.isEmpty { throw ValidationError("--no-media and --janus/--janus-node exclude each other") }
        for url in existingJanusURLs where !(url.hasPrefix("ws://") || url.hasPrefix("wss://")) {
            throw ValidationError("--janus and --janus-node want a WebSocket URL such as ws://127.0.0.1:8188, not \(url)")
        }
        if Set(existingJanusURLs).count < existingJanusURLs.count {
            throw ValidationError("a Janus URL is given twice: each --janus-node is a different Janus")
        }
        if janusAdminKey != nil || janusAdminKeyFile != nil, existingJanusURLs.isEmpty {
            throw ValidationError("--janus-admin-key and --janus-admin-key-file go with --janus or --janus-node (the managed Janus gets a generated key)")
        }
        if janusAdminKey != nil, janusAdminKeyFile != nil {
            throw ValidationError("give --janus-admin-key or --janus-admin-key-file, not both")
        }
        if let janusAdminKeyFile, !FileManager.default.isReadableFile(atPath: janusAdminKeyFile) {
            throw ValidationError("--janus-admin-key-file \(janusAdminKeyFile) cannot be read: run `confab-server janus-config` first, or fix the path")
        }
        _ = try portRange()
    }

    func configuration() throws -> MediaConfiguration {
        if noMedia { return .disabled }
        if !existingJanusURLs.isEmpty {
            let key = try janusAdminKeyFile.map { try ServiceJanusConfiguration.adminKey(fromFile: $0) } ?? janusAdminKey
            return .external(urls: existingJanusURLs, adminKey: key)
        }
        return .managed(ManagedJanusOptions(
            executable: janusBinary, websocketHost: janusHost, mediaAddress: mediaAddress, rtpPortRange: try portRange()))
    }

    private func portRange() throws -> ClosedRange<Int> { try Self.portRange(rtpPorts) }

    /// `--rtp-ports MIN-MAX`.
    static func portRange(_ text: String) throws -> ClosedRange<Int> {
        let bounds = text.split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, 1024 <= bounds[0], bounds[0] < bounds[1], bounds[1] <= 65535 else {
            throw ValidationError("--rtp-ports wants MIN-MAX within 1024-65535, e.g. 20000-40000")
        }
        return bounds[0]...bounds[1]
    }
}
