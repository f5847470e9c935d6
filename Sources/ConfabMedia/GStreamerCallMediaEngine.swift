import ConfabClient
import ConfabCore
import FoundationEssentials
import GLibBridge
import Logging

/// The app's media engine: a CallMediaSession per call, its remote feeds reported to the call
/// view model by participant session, its frames to whoever shows them.
@MainActor
public final class GStreamerCallMediaEngine: CallMediaEngine {
    /// Who watches each participant session's camera (see `watchVideo`), and who watches
    /// everyone's (`watchAllVideo`).
    private var videoWatchers: [String: Listeners<VideoFrame>] = [:]
    private let everyonesVideoWatchers = Listeners<RemoteVideoFrame>()
    /// Remote shared-screen frames (the share layout's large view).
    public let remoteScreenshareFrames = Listeners<RemoteVideoFrame>()
    /// Who shows our own camera (see `watchSelfView`).
    private let selfViewWatchers = Listeners<VideoFrame>()
    /// Our microphone's level while in a call, muted or not (dBFS).
    public var onLocalAudioLevel: (@MainActor (Double) -> Void)?
    /// A camera or microphone stopped working during the call; another one took over when the
    /// current choices offer one (the failed device unplugged, the default still there).
    public var onDeviceFailed: (@MainActor (MediaDeviceFailure) -> Void)?
    public private(set) var session: CallMediaSession?

    /// Shows one participant session's camera frames to `handler` for as long as the
    /// subscription lives. Any number of views watch at once (the call window's tiles, the
    /// minimized window). A camera nobody watches is not received: Janus stops forwarding it
    /// until someone watches again (then with a keyframe), so a hidden tile costs nothing.
    ///
    /// With a `viewport` (the view's pixel size), frames are scaled in GStreamer to cover the
    /// largest view watching that session, and follow it when it is resized.
    public func watchVideo(of sessionID: String, viewport: VideoViewport? = nil,
                           _ handler: @escaping @MainActor (VideoFrame) -> Void) -> Subscription {
        let watchers = videoWatchers[sessionID] ?? Listeners()
        videoWatchers[sessionID] = watchers
        let watch = watchers.subscribe(handler)
        nextViewportID += 1
        let viewportID = nextViewportID
        let resized = viewport.map { viewport in
            viewports[sessionID, default: [:]][viewportID] = viewport
            return viewport.changes.subscribe { [weak self] _ in
                self?.updateDisplaySize(of: sessionID)
                self?.noteShownVideo()
            }
        }
        updateWantedVideo()
        updateDisplaySize(of: sessionID)
        noteShownVideo()
        return Subscription { [weak self] in
            watch.cancel()
            resized?.cancel()
            guard let self else { return }
            if watchers.count == 0, self.videoWatchers[sessionID] === watchers { self.videoWatchers[sessionID] = nil }
            self.viewports[sessionID]?[viewportID] = nil
            if self.viewports[sessionID]?.isEmpty == true { self.viewports[sessionID] = nil }
            self.updateWantedVideo()
            self.updateDisplaySize(of: sessionID)
            self.noteShownVideo()
        }
    }

    /// The views showing each session's camera, by watch.
    private var viewports: [String: [Int: VideoViewport]] = [:]
    private var nextViewportID = 0

    /// The largest view of `sessionID` decides: a smaller one (the minimized window's) then
    /// scales down in GTK, which costs less than scaling up.
    private func updateDisplaySize(of sessionID: String) {
        session?.setDisplaySize(Self.largest((viewports[sessionID] ?? [:]).values.compactMap(\.pixelSize)), forSession: sessionID)
    }

    /// Shows our own camera's frames (the self-view) to `handler` for as long as the
    /// subscription lives. While nobody watches, the camera's frames are only sent: none is
    /// converted for a view nobody shows. With a `viewport`, frames are made at the largest
    /// watching view's pixels, and follow it when it is resized.
    public func watchSelfView(viewport: VideoViewport? = nil, _ handler: @escaping @MainActor (VideoFrame) -> Void) -> Subscription {
        let watch = selfViewWatchers.subscribe(handler)
        nextViewportID += 1
        let viewportID = nextViewportID
        let resized = viewport.map { viewport in
            selfViewports[viewportID] = viewport
            return viewport.changes.subscribe { [weak self] _ in self?.updateSelfViewSize() }
        }
        session?.setSelfViewShown(true)
        updateSelfViewSize()
        updateSelfViewBetweenSessions()
        return Subscription { [weak self] in
            watch.cancel()
            resized?.cancel()
            guard let self else { return }
            self.selfViewports[viewportID] = nil
            self.session?.setSelfViewShown(self.selfViewWatchers.count > 0)
            self.updateSelfViewSize()
            self.updateSelfViewBetweenSessions()
        }
    }

    /// The views showing our own camera, by watch.
    private var selfViewports: [Int: VideoViewport] = [:]

    private func updateSelfViewSize() {
        let size = Self.largest(selfViewports.values.compactMap(\.pixelSize))
        session?.setSelfViewDisplaySize(size)
        selfViewBetweenSessions?.setDisplaySize(size)
    }

    private static func largest(_ sizes: [VideoSize]) -> VideoSize? {
        sizes.max { $0.width * $0.height < $1.width * $1.height }
    }

    /// Self-view frames converted and handed over (whether a view drew them), and the last
    /// one's size (CONFAB_STATS).
    public private(set) var selfViewFramesMade = 0
    public private(set) var selfViewFrameSize: VideoSize?

    private func showInSelfView(_ frame: VideoFrame) {
        selfViewFramesMade += 1
        selfViewFrameSize = VideoSize(width: frame.width, height: frame.height)
        selfViewWatchers.send(frame)
    }

    /// Shows every participant's camera frames (confab-peer's report): everyone is received.
    public func watchAllVideo(_ handler: @escaping @MainActor (RemoteVideoFrame) -> Void) -> Subscription {
        let watch = everyonesVideoWatchers.subscribe(handler)
        updateWantedVideo()
        noteShownVideo()
        return Subscription { [weak self] in
            watch.cancel()
            self?.updateWantedVideo()
            self?.noteShownVideo()
        }
    }

    // MARK: The network

    /// Who is told when the system's network changes (`watchNetwork`).
    private let networkWatchers = Listeners<Void>()
    /// GIO's monitor, made for the first watcher (a session watches its own as well: it decides
    /// when its connection is lost; this tells whoever waits to connect again).
    private var networkMonitor: NetworkMonitor?

    public func watchNetwork(_ handler: @escaping @MainActor () -> Void) -> Subscription {
        if networkMonitor == nil {
            let monitor = NetworkMonitor()
            monitor.onChange { [weak self] _ in self?.networkWatchers.send(()) }
            networkMonitor = monitor
        }
        return networkWatchers.subscribe { _ in handler() }
    }

    // MARK: The size that is shown (issue 15)

    /// Who is told when `shownVideo` changes.
    private let shownVideoWatchers = Listeners<Void>()
    /// `shownVideo` when the watchers were last told.
    private var toldShownVideo: [String: VideoSize]?
    /// How large the call shows our camera, kept for the next call's session.
    private var cameraLimit = ShownSize.unknown

    /// The size confab-peer says it shows every camera at (`--shows`); nil: it cannot say
    /// (it receives them for a report, which looks at a thumbnail, not at what a person sees).
    public var declaredViewSize: VideoSize?

    public var shownVideo: [String: VideoSize]? {
        guard everyonesVideoWatchers.count == 0 else {
            guard let size = declaredViewSize, let session else { return nil }
            let cameras = session.remoteFeeds.values.filter { !$0.isScreenshare }.map(\.sessionID)
            return Dictionary(cameras.map { ($0, size) }) { first, _ in first }
        }
        let withoutView = remoteVideoSizeWithoutView ?? CallMediaConfiguration.defaultRemoteVideoSize
        return Dictionary(uniqueKeysWithValues: videoWatchers.keys.map { sessionID in
            (sessionID, Self.largest((viewports[sessionID] ?? [:]).values.compactMap(\.pixelSize)) ?? withoutView)
        })
    }

    public func watchShownVideo(_ handler: @escaping @MainActor () -> Void) -> Subscription {
        shownVideoWatchers.subscribe { _ in handler() }
    }

    private func noteShownVideo() {
        let shown = shownVideo
        guard shown != toldShownVideo else { return }
        toldShownVideo = shown
        shownVideoWatchers.send(())
    }

    public func limitCamera(to shown: ShownSize) {
        cameraLimit = shown
        session?.limitCamera(to: shown)
    }

    /// The sessions whose video is watched now; nil while someone watches everyone's.
    var watchedSessions: Set<String>? { everyonesVideoWatchers.count > 0 ? nil : Set(videoWatchers.keys) }

    private func updateWantedVideo() { session?.receiveVideo(of: watchedSessions) }

    /// Whose microphone is on (kept for a session started later).
    private var senders = RemoteSenders()

    public func expectMedia(from senders: RemoteSenders) {
        self.senders = senders
        session?.expectMedia(from: senders)
    }
    /// Asked before the whole X display is shared (X11 has no picker of its own); gets the
    /// display's name, answers whether to go ahead. Nil shares without asking (confab-peer).
    public var confirmSharingWholeDisplay: (@MainActor (String) async -> Bool)?
    /// Echo cancellation, noise suppression and gain control for the microphone; asked when a
    /// call starts (a change in Preferences applies from the next call: the DSP takes its
    /// settings when it starts).
    public var audioProcessing: @MainActor () -> AudioProcessing = { .default }
    /// The largest size our camera is sent at (what is sent follows the path up to it); asked
    /// when a call starts.
    public var maximumVideoSize: @MainActor () -> VideoSize = { VideoSize(width: 1280, height: 720) }
    /// The size remote cameras are scaled to when no view says (`watchVideo` without a
    /// viewport, `watchAllVideo`); nil: 640x360.
    public var remoteVideoSizeWithoutView: VideoSize?
    /// Join as this display rather than Confab's "user|session": for a plain Janus room whose
    /// other participants are not Confab apps (`confab-peer janus`).
    public var plainDisplay: String?
    /// Whose certificates a `wss://` media server may present (the app's `--ca-file`).
    public var mediaServerTrust = ServerTrust.system

    private let deviceSource: GStreamerDeviceSource
    private let devices: @MainActor (_ current: CallMediaDevices?) -> CallMediaDevices
    private let userID: String
    private let iceAddress: String?
    private let logger: Logger

    /// - Parameters:
    ///   - devices: the camera, microphone and speaker to use, given those in use (nil as a call
    ///     starts, and after a device failed): read when a call starts (the lobby's choices),
    ///     when the choices change, and when a device fails.
    ///   - iceAddress: restrict ICE to this address (tests in a network namespace).
    public init(deviceSource: GStreamerDeviceSource, userID: String, iceAddress: String? = nil,
                logger: Logger = Logger(label: "confab.media"), devices: @escaping @MainActor (_ current: CallMediaDevices?) -> CallMediaDevices) {
        self.deviceSource = deviceSource
        self.userID = userID
        self.iceAddress = iceAddress
        self.logger = logger
        self.devices = devices
    }

    public func start(call: CallID, endpoint: MediaEndpointInfo, sessionID: String, settings: CallSettings,
                      onUpdate: @escaping @MainActor ([String: ParticipantMedia]) -> Void,
                      onSignalled: @escaping @MainActor () -> Void = {},
                      onFailure: @escaping @MainActor (String) -> Void) async throws {
        JoinTimeline.mark("engine-start")
        await stop()
        isVideoEnabled = settings.videoOn
        let generation = stops
        var configuration = CallMediaConfiguration(janusURL: endpoint.url, room: endpoint.room, token: endpoint.token,
                                                   userID: userID, sessionID: sessionID, iceAddress: iceAddress)
        configuration.audioProcessing = audioProcessing()
        configuration.maximumVideoSize = maximumVideoSize()
        configuration.plainDisplay = plainDisplay
        if let size = remoteVideoSizeWithoutView {
            configuration.remoteVideoWidth = size.width
            configuration.remoteVideoHeight = size.height
        }
        configuration.mediaServerTrust = mediaServerTrust
        let session = CallMediaSession(configuration: configuration, devices: devices(nil), deviceSource: deviceSource, logger: logger)
        self.session = session
        session.onRemoteFrame = { [weak self, weak session] feed, frame in
            guard let self, let remote = session?.remoteFeeds[feed] else { return }
            let received = RemoteVideoFrame(sessionID: remote.sessionID, frame: frame)
            if remote.isScreenshare {
                self.remoteScreenshareFrames.send(received)
            } else {
                self.videoWatchers[remote.sessionID]?.send(frame)
                self.everyonesVideoWatchers.send(received)
            }
        }
        session.onLocalFrame = { [weak self] frame in self?.showInSelfView(frame) }
        session.setSelfViewShown(selfViewWatchers.count > 0)
        session.setSelfViewDisplaySize(Self.largest(selfViewports.values.compactMap(\.pixelSize)))
        session.onInputFailed = { [weak self, weak session] device, detail in
            guard let self, let session else { return }
            self.inputFailed(device, detail: detail, in: session)
        }
        session.onLocalAudioLevel = { [weak self] level in self?.onLocalAudioLevel?(level) }
        session.onChange = { [weak self, weak session] in
            guard let session else { return }
            // The cameras confab-peer receives come and go with the feeds.
            if self?.everyonesVideoWatchers.count ?? 0 > 0 { self?.noteShownVideo() }
            var media = Self.participantMedia(session.remoteFeeds.values)
            // Our own entry: only the quality of our uplink, as Janus's reports tell it.
            media[sessionID, default: ParticipantMedia()].connectionQuality = session.sentVideo?.uplinkQuality ?? .unknown
            media[sessionID]?.mediaPath = session.mediaPath
            onUpdate(media)
        }
        session.onFailure = onFailure
        session.onSignalled = onSignalled
        session.setSpeakerEnabled(settings.speakerOn)
        session.limitCamera(to: cameraLimit)
        session.receiveVideo(of: watchedSessions)
        session.expectMedia(from: senders)
        for sessionID in viewports.keys { updateDisplaySize(of: sessionID) }
        do {
            try await session.start(settings: settings)
        } catch {
            logger.warning("could not connect the call's media", metadata: ["error": "\(error)"])
            await session.stop()
            if self.session === session { self.session = nil }
            // The call goes on and will try again (ActiveCall's recovery), unless it was
            // stopped meanwhile (the call ended while this start waited).
            if stops == generation, self.session == nil { isBetweenSessions = true }
            throw error
        }
    }

    public func setAudioEnabled(_ enabled: Bool) { session?.setAudioEnabled(enabled) }
    public func setVideoEnabled(_ enabled: Bool) {
        isVideoEnabled = enabled
        session?.setVideoEnabled(enabled)
        updateSelfViewBetweenSessions()
    }
    /// Mutes or unmutes what we hear from the others (the echo canceller keeps running).
    public func setSpeakerEnabled(_ enabled: Bool) { session?.setSpeakerEnabled(enabled) }
    /// The device choices changed during a call: switch to them without leaving (see
    /// `CallMediaSession.use`). The devices closure gives the new choices.
    public func devicesChanged() {
        guard let session else {
            // Between sessions: the self-view shows the camera chosen now (a device that came
            // or went and changed nothing leaves it open).
            if !(devices(nil).camera?.isSameDevice(as: selfViewBetweenSessionsCamera) ?? false) { stopSelfViewBetweenSessions() }
            updateSelfViewBetweenSessions()
            return
        }
        session.use(devices(session.devices))
    }

    /// Falls back to what the choices give now, unless that is the failed device again.
    private func inputFailed(_ device: MediaDevice, detail: String, in session: CallMediaSession) {
        logger.warning("a device stopped working", metadata: ["device": "\(device.name)", "error": "\(detail)"])
        Task { [weak self, weak session] in
            // An unplugged device leaves the device monitor's list a moment after it fails.
            try? await Task.sleep(for: .seconds(1))
            guard let self, let session, self.session === session else { return }
            // Chosen afresh (not given the failed one as in use, which would keep it).
            let now = self.devices(nil)
            let choice = device.kind == .camera ? now.camera : now.microphone
            let replacement = choice.flatMap { $0.isSameDevice(as: device) ? nil : $0 }
            if replacement != nil { session.use(now) }
            self.onDeviceFailed?(MediaDeviceFailure(device: device, replacement: replacement, detail: detail))
        }
    }

    /// Whether our camera device is open now (it is closed while video is off).
    public var isCameraOpen: Bool { session?.isCameraOpen ?? false }

    public func startScreenshare(source: ScreenshareSource, onEnded: @escaping @MainActor (String) -> Void) async throws {
        guard let session else { throw CallError("Not connected to the call’s media server.") }
        try await session.startScreenshare(source: source, confirmWholeDisplay: confirmSharingWholeDisplay, onEnded: onEnded)
    }

    public func stopScreenshare() async { await session?.stopScreenshare() }

    public func stop() async {
        stops += 1
        isBetweenSessions = false
        guard let session else { return }
        self.session = nil
        await session.stop()
    }

    // MARK: Our camera between media sessions

    /// How many times `stop` was called: a start that failed after a stop does not leave the
    /// camera on for a call that ended meanwhile.
    private var stops = 0
    /// Whether our camera is on, as the call last said (`start`'s settings, `setVideoEnabled`).
    private var isVideoEnabled = false
    /// A media session failed to start and the call is trying again: there is no session, so
    /// no camera, until the next start.
    private var isBetweenSessions = false {
        didSet { updateSelfViewBetweenSessions() }
    }
    /// Shows our camera in the self-view while there is no media session. A media server that
    /// cannot be reached leaves none between tries (up to 8 s apart, for as long as it is
    /// away), and the self-view stood still on its last frame: the app looked frozen. It is
    /// the lobby's preview, with nothing sent; it closes the camera before a session opens it
    /// again (`start` stops first).
    private var selfViewBetweenSessions: CameraPreview?
    /// The camera it shows.
    private var selfViewBetweenSessionsCamera: MediaDevice?

    private func updateSelfViewBetweenSessions() {
        let wanted = isBetweenSessions && session == nil && isVideoEnabled && selfViewWatchers.count > 0
        guard wanted else { return stopSelfViewBetweenSessions() }
        guard selfViewBetweenSessions == nil, let camera = devices(nil).camera else { return }
        let preview = CameraPreview(devices: deviceSource)
        preview.setDisplaySize(Self.largest(selfViewports.values.compactMap(\.pixelSize)))
        preview.onFrame = { [weak self] frame in self?.showInSelfView(frame) }
        selfViewBetweenSessions = preview
        selfViewBetweenSessionsCamera = camera
        preview.startPreview(camera) { [weak self, weak preview] reason in
            // The next session reports a camera that does not work; until then, nothing moves.
            self?.logger.warning("the camera could not be shown between media sessions", metadata: ["error": "\(reason)"])
            if let preview, self?.selfViewBetweenSessions === preview { self?.stopSelfViewBetweenSessions() }
        }
    }

    private func stopSelfViewBetweenSessions() {
        selfViewBetweenSessions?.stopPreview()
        selfViewBetweenSessions = nil
        selfViewBetweenSessionsCamera = nil
    }

    /// Whether our camera is shown while the call has no media session (tests).
    public var isShowingSelfViewBetweenSessions: Bool { selfViewBetweenSessions?.isRunning ?? false }

    /// Feeds keyed by the participant session that publishes them: the camera feed gives the
    /// participant's video and audio, a screen feed makes them `isScreensharing`.
    static func participantMedia(_ feeds: some Sequence<RemoteFeed>) -> [String: ParticipantMedia] {
        let now = Date()
        let feeds = Array(feeds)
        var media: [String: ParticipantMedia] = [:]
        for feed in feeds where !feed.isScreenshare && media[feed.sessionID] == nil {
            // A muted microphone sends no packets, so Janus never says it stopped talking.
            // A paused feed (nobody watches it) says what it said when it was paused.
            media[feed.sessionID] = ParticipantMedia(hasVideo: feed.videoWhenPaused ?? feed.hasVideo(at: now),
                                                     hadVideo: feed.videoWhenPaused ?? (feed.lastFrameAt != nil), hasAudio: feed.isAudioFlowing,
                                                     isSpeaking: feed.isSpeaking && feed.isAudioFlowing,
                                                     connectionQuality: feed.connectionQuality,
                                                     trackSize: feed.videoSize)
        }
        for feed in feeds where feed.isScreenshare {
            // Sharing from the moment the feed is published; the size once a frame arrived.
            media[feed.sessionID, default: ParticipantMedia()].isScreensharing = true
            media[feed.sessionID]?.screenshareTrackSize = feed.videoSize
        }
        return media
    }
}

/// A video frame received from a participant session.
public struct RemoteVideoFrame {
    public let sessionID: String
    public let frame: VideoFrame
}
