/// Where a call's media goes: the media server endpoint the coordinator handed out on join.
public struct MediaEndpointInfo: Sendable, Equatable {
    public var url: String
    public var room: UInt64
    public var token: String

    public init(url: String, room: UInt64, token: String) {
        self.url = url
        self.room = room
        self.token = token
    }
}

/// Whether the path to the media server carries what we send, from the receiver reports the
/// media server sends back about it.
public enum MediaPath: Sendable, Equatable {
    /// No report yet: the connection is being made.
    case connecting
    /// Reports come in (or we send nothing, so there is nothing to be told).
    case up
    /// No report for a while though we send: the network went away or changed.
    case down
}

/// Who says their microphone is on, by participant session (their device's word, through the
/// coordinator). A connection receiving one of them that hears nothing after they turned it on
/// is dead even when nothing ever came on it (ConfabMedia's `ReceiverWatch`): one that died
/// while they were muted with the camera off stayed deaf once they spoke. (The camera is left
/// out: its video may be paused at Janus by us, and a resume Janus does not act on is asked
/// again, `Subscriber`.)
public struct RemoteSenders: Sendable, Equatable {
    public var microphoneOn: Set<String>

    public init(microphoneOn: Set<String> = []) {
        self.microphoneOn = microphoneOn
    }

    /// The participants whose device said its microphone is on (one that has not said is left out).
    public init(_ participants: some Sequence<CallParticipant>) {
        self.init(microphoneOn: Set(participants.filter { $0.microphoneOn == true }.map(\.sessionID)))
    }
}

/// What media we receive from one participant session, as the media engine measured it.
public struct ParticipantMedia: Sendable, Equatable {
    public var hasVideo: Bool
    /// Their video came on this connection at some point (it may have stopped since).
    public var hadVideo: Bool
    public var hasAudio: Bool
    public var isSpeaking: Bool
    public var connectionQuality: ConnectionQuality
    /// The received video's size in pixels (width, height), when there is video.
    public var trackSize: VideoSize?
    /// The participant publishes their screen (a second video stream besides the camera).
    public var isScreensharing: Bool
    /// The received screen's size in pixels, once a frame of it arrived.
    public var screenshareTrackSize: VideoSize?
    /// For our own session only: whether the path to the media server carries what we send, as
    /// its receiver reports tell (see `MediaPath`).
    public var mediaPath = MediaPath.connecting
    /// Our path to the media server carries nothing now (the network went away or changed).
    public var isPathDown: Bool { mediaPath == .down }

    public init(hasVideo: Bool = false, hadVideo: Bool? = nil, hasAudio: Bool = false, isSpeaking: Bool = false,
                connectionQuality: ConnectionQuality = .unknown, trackSize: VideoSize? = nil,
                isScreensharing: Bool = false, screenshareTrackSize: VideoSize? = nil, mediaPath: MediaPath = .connecting) {
        self.mediaPath = mediaPath
        self.hasVideo = hasVideo
        self.hadVideo = hadVideo ?? hasVideo
        self.hasAudio = hasAudio
        self.isSpeaking = isSpeaking
        self.connectionQuality = connectionQuality
        self.trackSize = trackSize
        self.isScreensharing = isScreensharing
        self.screenshareTrackSize = screenshareTrackSize
    }
}

public struct VideoSize: Sendable, Equatable, Hashable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// "1280x720" (what people type after `--max-video-size`); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0,
              width <= 7680, height <= 4320 else { return nil }
        self.init(width: width, height: height)
    }
}

/// Sends our media and receives everyone else's (ConfabMedia implements it with GStreamer and
/// Janus; ConfabCore's tests use a fake).
@MainActor
public protocol CallMediaEngine: AnyObject {
    /// Starts sending and receiving in `call`. `onUpdate` gets every participant session's media
    /// state (by coordinator session id) whenever it changes; `onFailure` a sentence for the user
    /// if the media connection is lost for good. `onSignalled` runs once, when the first
    /// picture has been asked for: our answer made to receive one of those already in, or in
    /// an empty room our published offer answered. What is left before media flows is the
    /// network's, which takes no main thread — often before `start` returns.
    func start(call: CallID, endpoint: MediaEndpointInfo, sessionID: String, settings: CallSettings,
               onUpdate: @escaping @MainActor ([String: ParticipantMedia]) -> Void,
               onSignalled: @escaping @MainActor () -> Void,
               onFailure: @escaping @MainActor (String) -> Void) async throws
    func setAudioEnabled(_ enabled: Bool)
    func setVideoEnabled(_ enabled: Bool)
    /// Publishes our screen from `source` as a second, video-only stream; throws a sentence for
    /// the user if the screen cannot be captured, `ScreenshareCancelled` if the user backed out of
    /// the desktop's "what to share" dialog. Only while started. `onEnded` gets a sentence for the
    /// user if the share later ends by itself (the desktop stopped it, the capture failed).
    func startScreenshare(source: ScreenshareSource, onEnded: @escaping @MainActor (String) -> Void) async throws
    /// Stops publishing the screen (nothing happens if it is not shared).
    func stopScreenshare() async
    func stop() async
    /// Mutes or unmutes what we hear from the others.
    func setSpeakerEnabled(_ enabled: Bool)

    /// The pixel size of the largest view of each remote camera shown now, by participant
    /// session (a camera left out is not shown); nil when the engine cannot say (it receives
    /// every camera for a report, at no size of its own).
    var shownVideo: [String: VideoSize]? { get }
    /// Calls `handler` whenever `shownVideo` changes, until the subscription goes.
    func watchShownVideo(_ handler: @escaping @MainActor () -> Void) -> Subscription
    /// How large the call shows our camera: what we send is never larger (issue 15).
    func limitCamera(to shown: ShownSize)
    /// Calls `handler` whenever the system's network changes (an address or a route came or
    /// went: a laptop back on its Wi-Fi), until the subscription goes, connected or not: a
    /// media connection lost meanwhile is worth trying again now.
    func watchNetwork(_ handler: @escaping @MainActor () -> Void) -> Subscription
    /// Whose microphone is on now, by their device's word (see `RemoteSenders`); told again
    /// whenever it changes.
    func expectMedia(from senders: RemoteSenders)
}

extension CallMediaEngine {
    /// Engines without a speaker of their own (test fakes) ignore it.
    public func setSpeakerEnabled(_ enabled: Bool) {}
    /// Engines that show no video (test fakes) cannot say what they show, nor send any.
    public var shownVideo: [String: VideoSize]? { nil }
    public func watchShownVideo(_ handler: @escaping @MainActor () -> Void) -> Subscription { Subscription {} }
    public func limitCamera(to shown: ShownSize) {}
    /// Engines that watch no network (test fakes) never say it changed.
    public func watchNetwork(_ handler: @escaping @MainActor () -> Void) -> Subscription { Subscription {} }
    /// Engines that watch no connection (test fakes) need not know whose microphone is on.
    public func expectMedia(from senders: RemoteSenders) {}
}

/// The user cancelled the desktop's "choose what to share" dialog: nothing to report.
public struct ScreenshareCancelled: Error, Equatable, Sendable {
    public init() {}
}

/// Where a shared screen comes from.
public enum ScreenshareSource: String, Sendable, Equatable, CaseIterable {
    /// The ScreenCast portal where there is one (the user picks a monitor or window), else the X display.
    case automatic
    /// The whole X11 display named by $DISPLAY.
    case x11
    /// The xdg-desktop-portal ScreenCast portal and PipeWire.
    case portal
    /// A moving test pattern (tests and demos).
    case test
}
