import ConfabClient
import ConfabCore

/// How the app was started (command line and environment), already validated.
public struct AppOptions: Sendable {
    public static let defaultServerURL = "ws://127.0.0.1:8630"

    /// The call server, or several replicas of it to fail over between.
    public var servers: ServerEndpoints
    /// Whose certificates a `wss://` server may present (`--ca-file`).
    public var serverTrust = ServerTrust.system
    public var user: User
    /// A token from `confab-server token USER`; nil works with a `--dev-auth` server.
    public var token: String?
    /// Open straight into this call's lobby.
    public var call: CallID?
    /// Add a test camera and test microphones (no real devices needed).
    public var useTestDevices: Bool
    /// Size the camera preview is scaled to in GStreamer.
    /// Restrict media (ICE) to this local address; tests in a network namespace need it.
    public var mediaAddress: String?
    public var previewWidth: Int
    public var previewHeight: Int
    /// The largest size our camera is sent at; what is sent follows the connection up to it.
    public var maximumVideoSize = VideoSize(width: 1280, height: 720)
    /// `confab:` links to open (handed to the running instance when there is one).
    public var links: [String] = []
    /// Start hidden and stay signed in with no window open (`--gapplication-service`).
    public var runsInBackground = false
    /// One Confab per desktop session: a second launch hands its links to the first. Off when
    /// another user is chosen explicitly (`make run USER=bob` beside your own Confab), so two
    /// users can share a machine.
    public var isSingleInstance = true

    public init(servers: ServerEndpoints = ServerEndpoints(AppOptions.defaultServerURL), user: User, token: String? = nil, call: CallID? = nil,
                useTestDevices: Bool = false, mediaAddress: String? = nil, previewWidth: Int = 640, previewHeight: Int = 360) {
        self.servers = servers
        self.user = user
        self.token = token
        self.call = call
        self.useTestDevices = useTestDevices
        self.mediaAddress = mediaAddress
        self.previewWidth = previewWidth
        self.previewHeight = previewHeight
    }
}
