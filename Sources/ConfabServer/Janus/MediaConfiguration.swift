/// Where calls' media goes: through a Janus this server runs, through one that already runs,
/// or nowhere (joins answer `media: nil`).
public enum MediaConfiguration: Sendable, Equatable {
    /// confab-server starts its own `janus` child process and manages it (the default).
    case managed(ManagedJanusOptions)
    /// Existing Janus nodes at `urls` (`ws://host:port`, at least one: `--janus` or each
    /// `--janus-node`); each call's room goes on one of them (`JanusRooms`). `adminKey` if their
    /// videorooms have one (the same on every node).
    case external(urls: [String], adminKey: String?)
    /// No media: for coordinator-only tests and machines without Janus.
    case disabled
}

/// How the managed Janus is set up.
public struct ManagedJanusOptions: Sendable, Equatable {
    /// The `janus` binary; nil looks it up on PATH.
    public var executable: String?
    /// Address Janus's WebSocket listens on and clients connect to.
    public var websocketHost: String
    /// The only address Janus gathers ICE candidates on; nil lets it use every interface.
    public var mediaAddress: String?
    public var rtpPortRange: ClosedRange<Int>
    /// Janus drops a session that sent nothing for this long; clients keep alive well below it.
    public var sessionTimeoutSeconds: Int

    public init(
        executable: String? = nil, websocketHost: String = "127.0.0.1", mediaAddress: String? = nil,
        rtpPortRange: ClosedRange<Int> = 20000...40000, sessionTimeoutSeconds: Int = 60
    ) {
        self.executable = executable
        self.websocketHost = websocketHost
        self.mediaAddress = mediaAddress
        self.rtpPortRange = rtpPortRange
        self.sessionTimeoutSeconds = sessionTimeoutSeconds
    }
}
