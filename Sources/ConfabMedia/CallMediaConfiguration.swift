import ConfabClient
import ConfabCore
import GLibBridge

/// Where and what to send and receive in a call.
public struct CallMediaConfiguration: Sendable {
    /// The media server endpoint the coordinator handed out on join.
    public var janusURL: String
    /// Whose certificates a `wss://` media server may present: the coordinator's (`--ca-file`).
    public var mediaServerTrust = ServerTrust.system
    public var room: UInt64
    /// The one-time token the coordinator added to the room's allowed list; empty for a plain
    /// room that checks none (`confab-peer janus`).
    public var token: String
    /// The display others see instead of Confab's "user|session" (a plain Janus room, where the
    /// others are not Confab apps); nil for Confab calls.
    public var plainDisplay: String?
    /// Who we are, as other participants see our feed: user id and coordinator session id.
    public var userID: String
    public var sessionID: String
    /// Restrict ICE to this local address, or these (comma-separated: those present when a
    /// connection is made are used — a test moves a peer from one to another); tests in a
    /// network namespace, see ARCHITECTURE.md.
    public var iceAddress: String?
    /// `iceAddress`, one by one.
    var iceAddresses: [String] {
        (iceAddress ?? "").split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }
    /// The largest size our camera is sent at, and the camera's frame rate; what is sent
    /// follows the path, up to these (see `SendRateController`).
    public var maximumVideoSize = VideoSize(width: 1280, height: 720)
    public var videoFramerate = 30
    /// The largest size a shared screen is sent at (scaled keeping its aspect), its rate and bitrate:
    /// legible text matters more than motion.
    public var screenshareMaxWidth = 1920
    public var screenshareMaxHeight = 1080
    public var screenshareFramerate = 10
    public var screenshareBitrate = 1_500_000
    /// Echo cancellation, noise suppression and gain control on our microphone.
    public var audioProcessing = AudioProcessing.default
    /// Size remote video is scaled to before it reaches the UI (when no view gives its own).
    public var remoteVideoWidth = Self.defaultRemoteVideoSize.width
    public var remoteVideoHeight = Self.defaultRemoteVideoSize.height
    public static let defaultRemoteVideoSize = VideoSize(width: 640, height: 360)

    public init(janusURL: String, room: UInt64, token: String, userID: String, sessionID: String, iceAddress: String? = nil) {
        self.janusURL = janusURL
        self.room = room
        self.token = token
        self.userID = userID
        self.sessionID = sessionID
        self.iceAddress = iceAddress
    }

    /// Our feed's display string in the room: "user|session", so others can tell who it is.
    var display: String { plainDisplay ?? "\(userID)|\(sessionID)" }
    /// The token to join with: none in a plain room (Janus ignores tokens there, but an empty
    /// one would only confuse a reader of its logs).
    var joinToken: String? { token.isEmpty ? nil : token }
    /// Our shared screen's display string: "user|session|screen".
    var screenshareDisplay: String { "\(display)|\(RemoteFeed.screenshareMarker)" }
}

/// The media devices a call uses; nil means none (nothing is sent of that kind).
public struct CallMediaDevices: Sendable {
    public var camera: MediaDevice?
    public var microphone: MediaDevice?
    /// Where remote audio is played; nil plays to the system default.
    public var speaker: MediaDevice?

    public init(camera: MediaDevice?, microphone: MediaDevice?, speaker: MediaDevice?) {
        self.camera = camera
        self.microphone = microphone
        self.speaker = speaker
    }
}
