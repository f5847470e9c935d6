import ConfabClient
import ConfabCore
import ConfabProtocol
import FoundationEssentials
import GLibBridge
import JanusProtocol
import Logging

/// Sends our camera and microphone to the call's Janus room and receives every other
/// participant's, following the recipe in ARCHITECTURE.md: one send-only publisher connection,
/// and one subscriber connection per remote publisher (multistream renegotiation fails on
/// GStreamer 1.22), added and removed as publishers come and go.
@MainActor
public final class CallMediaSession {
    /// Everyone we receive, by Janus feed id.
    public private(set) var remoteFeeds: [UInt64: RemoteFeed] = [:]
    /// One camera frame in this many is shown in the self-view (`SelfViewRate`).
    private var selfViewFrameStep = 1
    /// What we send of our camera, refreshed once a second.
    public private(set) var sentVideo: SentVideo?
    /// Called on the main loop for each remote video frame (feed id, frame).
    public var onRemoteFrame: (@MainActor (UInt64, VideoFrame) -> Void)?
    /// Called on the main loop for each frame of our own camera (the self-view).
    public var onLocalFrame: (@MainActor (VideoFrame) -> Void)?
    /// Our microphone's level, measured before muting (for "you are muted" hints).
    public var onLocalAudioLevel: (@MainActor (Double) -> Void)?
    /// Called after remote feeds change (joined, left, speaking, levels, quality).
    public var onChange: (@MainActor () -> Void)?
    /// Our camera or microphone stopped working (see `Publisher.onInputFailed`).
    public var onInputFailed: (@MainActor (MediaDevice, String) -> Void)?
    /// Called once if the media connection is lost for good: Janus went away, or the network
    /// dropped or changed under the connection (ICE in GStreamer 1.22 cannot restart: a new
    /// connection is the way back).
    public var onFailure: (@MainActor (String) -> Void)?
    /// Called once, when the join's first picture has been asked for: our answer made (it goes
    /// out at once) to receive one of those who were in the room; in an empty room, our
    /// published offer answered. What is left before that picture comes (ICE, DTLS, the first
    /// keyframe: ~0.1 s here) needs no main thread, so the UI's heavy work can take it then
    /// (see `ActiveCall.isMediaSignalled`). Waiting for our publishing as well put that work
    /// after the answer's network part had begun, and the picture waited for it (bench-media).
    public var onSignalled: (@MainActor () -> Void)?
    /// What the join waits for before `onSignalled`; nil once it was told.
    private var awaitedSignal: JoinConnection? = .publisher
    private var isPublished = false

    private enum JoinConnection {
        case publisher
        case anyReceiver
    }
    /// Whether what we send reaches the media server, from its receiver reports.
    public private(set) var mediaPath = MediaPath.connecting

    private let configuration: CallMediaConfiguration
    /// The camera, microphone and speaker the call uses now.
    public private(set) var devices: CallMediaDevices
    private let deviceSource: GStreamerDeviceSource
    private let logger: Logger
    private var janus: JanusSession?
    /// A handle attached while our publisher joins the room, for the first participant we
    /// receive: the attach's round trip overlaps the join's instead of following it.
    private var spareHandle: Task<JanusHandle, any Error>?
    private var publisher: Publisher?
    /// Everyone's audio, mixed and played, with the echo canceller's probe (see `CallSpeaker`).
    private var speaker: CallSpeaker?
    private var isSpeakerMuted = false
    private var screenPublisher: ScreensharePublisher?
    private var subscribers: [UInt64: Subscriber] = [:]
    /// What Janus said about each feed we receive, to subscribe again (another speaker).
    private var publishedFeeds: [UInt64: PublishedFeed] = [:]
    private var statisticsTimer: RepeatingTimer?
    /// The participant sessions whose camera video is received; nil for everyone's.
    private var wantedVideo: Set<String>?
    /// Whose microphone is on, by their device's word (`expectMedia(from:)`).
    private var remoteSenders = RemoteSenders()
    /// The pixel size each participant session's camera is shown at (their tile): frames are
    /// made into it as they are decoded (`VideoFrameScaler`).
    private var displaySizes: [String: VideoSize] = [:]
    private var isSelfViewShown = false
    private var selfViewDisplaySize: VideoSize?
    /// How large the call shows our camera (`limitCamera`), kept for a publisher made later.
    private var cameraLimit = ShownSize.unknown
    private var stopped = false
    private var hasFailed = false
    /// The system's network: a change tells that the addresses our connection was made on may
    /// be gone (sooner than the silence does), or that the network it was made without is back.
    private var network: NetworkMonitor?
    /// When to give the connection up (see `MediaConnectionWatch`).
    private var watch = MediaConnectionWatch()

    public init(configuration: CallMediaConfiguration, devices: CallMediaDevices, deviceSource: GStreamerDeviceSource,
                logger: Logger = Logger(label: "confab.media")) {
        self.configuration = configuration
        self.devices = devices
        self.deviceSource = deviceSource
        self.logger = logger
    }

    /// Connects to Janus, publishes what `settings` allow, and subscribes to everyone already there.
    public func start(settings: CallSettings) async throws {
        JoinTimeline.mark("media-start")
        // Normally started as the program started; if not, it goes on while we connect.
        CallMediaWarmUp.start()
        let janus = JanusSession(url: configuration.janusURL, trust: configuration.mediaServerTrust, logger: logger)
        self.janus = janus
        janus.onClosed = { [weak self] reason in self?.mediaServerLost(reason) }
        // The pipelines need nothing from Janus: they are built (20–50 ms of the main thread
        // here) while the socket opens, instead of after (bench-media's join timeline).
        janus.startConnecting()
        // Watching from before our connection gathers its candidates: a connection made while
        // the network is away must hear of its return even if it comes while publishing.
        let network = NetworkMonitor()
        network.onChange { [weak self] _ in self?.networkChanged() }
        self.network = network
        // The speaker first: the microphone's echo canceller looks for its probe when it starts.
        let speaker = try CallSpeaker(sink: deviceSource.sinkDescription(for: devices.speaker), logger: logger)
        self.speaker = speaker
        speaker.setMuted(isSpeakerMuted)
        let publisher = try Publisher(configuration: configuration, devices: devices, deviceSource: deviceSource,
                                      echoProbeName: speaker.echoProbeName, logger: logger)
        self.publisher = publisher
        JoinTimeline.mark("publisher-built")
        try await janus.connect()
        JoinTimeline.mark("janus-connected")
        spareHandle = Task { try await janus.attachVideoRoom() }
        publisher.onLocalFrame = { [weak self] frame in self?.onLocalFrame?(frame) }
        publisher.setSelfViewShown(isSelfViewShown)
        publisher.setSelfViewDisplaySize(selfViewDisplaySize)
        publisher.setSelfViewFrameStep(selfViewFrameStep)
        publisher.limitCamera(to: cameraLimit)
        publisher.onLocalAudioLevel = { [weak self] level in self?.onLocalAudioLevel?(level) }
        publisher.onRoomEvent = { [weak self] event in self?.roomEvent(event) }
        publisher.onJoinedRoom = { [weak self] existing in existing.forEach { self?.subscribe(to: $0) } }
        publisher.onInputFailed = { [weak self] device, detail in self?.onInputFailed?(device, detail) }
        // Our offer and the answers to those already in need it.
        await DTLSCertificate.ready()
        JoinTimeline.mark("certificate-ready")
        let existing = try await publisher.start(on: janus, settings: settings)
        isPublished = true
        for feed in existing { subscribe(to: feed) }
        signalled(.publisher)
        watch.connected()
        statisticsTimer = RepeatingTimer(interval: 1) { [weak self] in self?.refreshFeeds() }
    }

    /// Stops sending audio (a muted microphone sends nothing at all) or resumes it.
    public func setAudioEnabled(_ enabled: Bool) { publisher?.setSending(audio: enabled) }
    /// Stops sending video (and the camera) or resumes it (with a keyframe, so others see it at once).
    public func setVideoEnabled(_ enabled: Bool) { publisher?.setSending(video: enabled) }
    /// Whether someone shows our camera (`onLocalFrame`); until then its frames are not
    /// converted for it.
    public func setSelfViewShown(_ shown: Bool) {
        isSelfViewShown = shown
        publisher?.setSelfViewShown(shown)
    }

    /// Makes our camera's frames for the self-view at `size` (the largest view showing it;
    /// nil: the configured size) from the next frame on.
    public func setSelfViewDisplaySize(_ size: VideoSize?) {
        selfViewDisplaySize = size
        publisher?.setSelfViewDisplaySize(size)
    }

    /// Sends our camera no larger than the call shows it (see `SendRateController.limit(to:)`).
    public func limitCamera(to shown: ShownSize) {
        cameraLimit = shown
        publisher?.limitCamera(to: shown)
    }

    /// Silences everyone's audio here (or brings it back); the echo canceller keeps running.
    public func setSpeakerEnabled(_ enabled: Bool) {
        isSpeakerMuted = !enabled
        speaker?.setMuted(!enabled)
    }

    /// Switches to other devices during the call without leaving it: the camera and microphone
    /// are swapped under the running connection (others keep receiving us), and the mixed
    /// audio of every participant goes to the new speaker (the receivers and the echo
    /// canceller's probe stay as they are).
    public func use(_ newDevices: CallMediaDevices) {
        guard !stopped else { return }
        let speakerChanged = newDevices.speaker?.id != devices.speaker?.id
        devices = newDevices
        publisher?.use(camera: newDevices.camera, microphone: newDevices.microphone)
        if speakerChanged { speaker?.use(sink: deviceSource.sinkDescription(for: newDevices.speaker)) }
    }

    /// Scales `session`'s camera video to `size` (the largest view showing it; nil: the
    /// configured size) from the next frame on.
    public func setDisplaySize(_ size: VideoSize?, forSession session: String) {
        displaySizes[session] = size
        for (feedID, subscriber) in subscribers {
            guard let remote = remoteFeeds[feedID], remote.sessionID == session, !remote.isScreenshare else { continue }
            subscriber.setDisplaySize(size)
        }
    }

    /// Whether our camera device is open now.
    public var isCameraOpen: Bool { publisher?.isCameraOpen ?? false }

    /// Publishes our screen as a second feed in the room ("user|session|screen"); replaces a
    /// share already running.
    /// `onEnded` runs if the share ends by itself (see `ScreensharePublisher.onEnded`).
    public func startScreenshare(source: ScreenshareSource, confirmWholeDisplay: (@MainActor (String) async -> Bool)? = nil,
                                 onEnded: @escaping @MainActor (String) -> Void) async throws {
        guard !stopped, janus != nil else { throw CallError("Not connected to the call’s media server.") }
        await stopScreenshare()
        // The portal's dialog (or ours) may stay open for a while; the call may end meanwhile.
        let capture = try await ScreenCapture.open(source, confirmWholeDisplay: confirmWholeDisplay)
        guard !stopped, let janus else {
            capture.close()
            throw CallError("Not connected to the call’s media server.")
        }
        let screen = try ScreensharePublisher(capture: capture, configuration: configuration, logger: logger)
        screen.onEnded = onEnded
        screenPublisher = screen
        do {
            try await screen.start(on: janus)
        } catch {
            await screen.stop()
            if screenPublisher === screen { screenPublisher = nil }
            throw error
        }
    }

    /// Stops publishing our screen; others see its feed leave.
    public func stopScreenshare() async {
        guard let screen = screenPublisher else { return }
        screenPublisher = nil
        await screen.stop()
    }

    /// Whose microphone is on (`RemoteSenders`): a receiving connection whose participant turns
    /// it on is judged by its silence even before any media came on it (`ReceiverWatch`).
    public func expectMedia(from senders: RemoteSenders) { remoteSenders = senders }

    /// Whether sound should be coming to us from `feedID` now: its participant says their
    /// microphone is on (a silent one sends a packet every 400 ms). A shared screen's feed is
    /// judged as before: by what came on it.
    private func isMicrophoneOn(_ feedID: UInt64) -> Bool {
        guard let remote = remoteFeeds[feedID], !remote.isScreenshare else { return false }
        return remoteSenders.microphoneOn.contains(remote.sessionID)
    }

    /// Receives the camera video of these participant sessions only (nil: everyone's); the
    /// others' is paused at Janus, their audio goes on.
    public func receiveVideo(of sessions: Set<String>?) {
        wantedVideo = sessions
        for (feedID, subscriber) in subscribers { applyWantedVideo(to: subscriber, feed: feedID) }
    }

    private func applyWantedVideo(to subscriber: Subscriber, feed feedID: UInt64) {
        guard let remote = remoteFeeds[feedID], !remote.isScreenshare else { return }
        let paused = !(wantedVideo?.contains(remote.sessionID) ?? true)
        guard paused != remote.isVideoPaused else { return }
        remoteFeeds[feedID]?.videoWhenPaused = paused ? remote.hasVideo() : nil
        subscriber.setVideoPaused(paused)
        onChange?()
    }

    /// Leaves the room and releases every pipeline and device.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        statisticsTimer?.cancel()
        network?.stop()
        network = nil
        await stopScreenshare()
        for subscriber in subscribers.values { await subscriber.stop() }
        subscribers = [:]
        await publisher?.stop()
        publisher = nil
        speaker?.stop()
        speaker = nil
        await janus?.close()
        janus = nil
        remoteFeeds = [:]
    }

    // MARK: Room events

    private func roomEvent(_ event: RoomEvent) {
        switch event {
        case .publishers(let feeds):
            feeds.forEach(subscribe(to:))
        case .left(let feedID):
            unsubscribe(from: feedID)
        case .talking(let feedID, let talking):
            guard remoteFeeds[feedID] != nil else { return }
            remoteFeeds[feedID]?.isSpeaking = talking
            onChange?()
        }
    }

    private func subscribe(to feed: PublishedFeed) {
        guard !stopped, subscribers[feed.id] == nil, janus != nil else { return }
        let identity = RemoteFeed.identity(fromDisplay: feed.display, feed: feed.id)
        guard identity.session != configuration.sessionID else { return }
        // Our own feeds (camera and screen) are skipped above: the sharer never sees their screen mirrored.
        remoteFeeds[feed.id] = RemoteFeed(id: feed.id, userID: identity.user, sessionID: identity.session,
                                          isScreenshare: identity.isScreenshare, isSpeaking: feed.isTalking)
        publishedFeeds[feed.id] = feed
        startReceiving(feed)
        updateSelfViewRate()
        onChange?()
    }

    /// `connection` has signalled: `onSignalled` if that is what the join waits for.
    private func signalled(_ connection: JoinConnection) {
        guard let awaitedSignal, connection == awaitedSignal else { return }
        self.awaitedSignal = nil
        JoinTimeline.mark("media-signalled")
        onSignalled?()
        onSignalled = nil
    }

    /// A receiver for `feed` (already in `remoteFeeds`), playing to the current speaker.
    /// - Parameter replacing: a receiver made anew (`receiveAnew`): the speaker already plays this feed.
    private func startReceiving(_ feed: PublishedFeed, replacing: Bool = false) {
        guard let janus, let speaker, let remote = remoteFeeds[feed.id] else { return }
        do {
            let subscriber = try Subscriber(feed: feed.id, isScreenshare: remote.isScreenshare, configuration: configuration,
                                            speakerSink: CallSpeaker.receiverSink(feed: feed.id, probeName: speaker.echoProbeName),
                                            logger: logger)
            // (A shared screen has no sound.)
            if !remote.isScreenshare, !replacing { speaker.add(feed: feed.id) }
            subscribers[feed.id] = subscriber
            subscriber.framesAtLastRefresh = remote.framesReceived
            applyWantedVideo(to: subscriber, feed: feed.id)
            if !remote.isScreenshare { subscriber.setDisplaySize(displaySizes[remote.sessionID]) }
            subscriber.onFrame = { [weak self] frame in self?.received(frame, from: feed.id) }
            subscriber.onAudioLevel = { [weak self] level in self?.receivedAudio(level, from: feed.id) }
            subscriber.onAudioStream = { [weak self] in self?.audioArrived(from: feed.id) }
            // Someone to see while the join signals: their picture is what it waits for.
            if awaitedSignal != nil { awaitedSignal = .anyReceiver }
            subscriber.onAnswerMade = { [weak self] in self?.signalled(.anyReceiver) }
            // Started here, up to its first wait (the request to Janus sent), not after what
            // the main actor does next: the participants' update (`onChange`) and the page.
            Task.immediate {
                do {
                    try await subscriber.start(on: janus, attaching: self.takeSpareHandle(), privateID: self.publisher?.privateID)
                } catch {
                    self.logger.warning("could not receive a participant's media", metadata: ["feed": "\(feed.id)", "error": "\(error)"])
                    // (Unless it was replaced meanwhile: another speaker chosen.)
                    if self.subscribers[feed.id] === subscriber { self.unsubscribe(from: feed.id) }
                }
            }
        } catch {
            logger.warning("could not build a receiver", metadata: ["error": "\(error)"])
            remoteFeeds[feed.id] = nil
            publishedFeeds[feed.id] = nil
        }
    }

    /// `feedID`'s connection stopped hearing from Janus while ours to it works
    /// (`ReceiverWatch`): a new connection for that participant alone. Their tile stays (they
    /// did not leave), their sound keeps its place in the speaker's mix, and the others, and
    /// what we send, go on as they are.
    private func receiveAnew(_ feedID: UInt64) {
        // (Not once the whole connection is given up: a new one is being made.)
        guard !stopped, !hasFailed, let feed = publishedFeeds[feedID], let old = subscribers.removeValue(forKey: feedID) else { return }
        logger.info("nothing from the media server on a receiving connection: receiving anew", metadata: ["feed": "\(feedID)"])
        Task { await old.stop() }
        startReceiving(feed, replacing: true)
    }

    private func takeSpareHandle() -> Task<JanusHandle, any Error>? {
        defer { spareHandle = nil }
        return spareHandle
    }

    /// Fewer self-view frames in a big call, all of them again when it gets small.
    private func updateSelfViewRate() {
        let step = SelfViewRate.frameStep(othersInCall: remoteFeeds.values.filter { !$0.isScreenshare }.count)
        guard step != selfViewFrameStep else { return }
        selfViewFrameStep = step
        publisher?.setSelfViewFrameStep(step)
    }

    private func unsubscribe(from feedID: UInt64) {
        guard let subscriber = subscribers.removeValue(forKey: feedID) else { return }
        // Nobody left to see (they left, or receiving them failed): our publishing is what counts.
        if awaitedSignal == .anyReceiver, subscribers.isEmpty {
            awaitedSignal = .publisher
            if isPublished { signalled(.publisher) }
        }
        speaker?.remove(feed: feedID)
        remoteFeeds[feedID] = nil
        publishedFeeds[feedID] = nil
        Task { await subscriber.stop() }
        updateSelfViewRate()
        onChange?()
    }

    private func received(_ frame: VideoFrame, from feedID: UInt64) {
        guard remoteFeeds[feedID] != nil else { return }
        let now = Date()
        let hadVideo = remoteFeeds[feedID]?.hasVideo(at: now) ?? false
        remoteFeeds[feedID]?.framesReceived += 1
        remoteFeeds[feedID]?.lastFrameAt = now
        if remoteFeeds[feedID]?.firstFrameAt == nil { remoteFeeds[feedID]?.firstFrameAt = now }
        remoteFeeds[feedID]?.videoSize = VideoSize(width: frame.width, height: frame.height)
        onRemoteFrame?(feedID, frame)
        if !hadVideo { onChange?() }
    }

    private func receivedAudio(_ level: Double, from feedID: UInt64) {
        guard remoteFeeds[feedID] != nil else { return }
        remoteFeeds[feedID]?.audioLevel = level
        remoteFeeds[feedID]?.audioReadings += 1
        remoteFeeds[feedID]?.lastAudioAt = Date()
        audioArrived(from: feedID)
    }

    /// Sound came (the stream appeared with its first packet, or a reading): say so now rather
    /// than at the next refresh, so a joining participant or an unmute shows at once.
    private func audioArrived(from feedID: UInt64) {
        guard remoteFeeds[feedID]?.isAudioFlowing == false else { return }
        remoteFeeds[feedID]?.isAudioFlowing = true
        onChange?()
    }

    /// Once a second: frame rates, stale video/audio, connection quality from statistics.
    private func refreshFeeds() {
        publisher?.checkCamera()
        // Receiving connections that stopped hearing from Janus (`ReceiverWatch`).
        var deaf: [UInt64] = []
        defer { deaf.forEach(receiveAnew) }
        for (feedID, subscriber) in subscribers {
            let frames = remoteFeeds[feedID]?.framesReceived ?? 0
            remoteFeeds[feedID]?.framesPerSecond = Double(frames - subscriber.framesAtLastRefresh)
            remoteFeeds[feedID]?.receivedVideoSize = subscriber.receivedVideoSize
            subscriber.framesAtLastRefresh = frames
            // The refresh comes once a second, and a silent microphone that is on sends a packet
            // every 400 ms: no packet since the last refresh means the microphone is off.
            let audioPackets = subscriber.audioPacketsReceived ?? 0
            remoteFeeds[feedID]?.isAudioFlowing = audioPackets > subscriber.audioPacketsAtLastRefresh
            subscriber.audioPacketsAtLastRefresh = audioPackets
            if let received = subscriber.packetsFromJanus,
               subscriber.watch.follow(received: received, carriedMedia: subscriber.hasCarriedMedia, microphoneOn: isMicrophoneOn(feedID),
                                       sendingPath: mediaPath, networkChangedLately: watch.changedLately()) {
                deaf.append(feedID)
            }
            Task {
                let reception = await subscriber.receptionStatistics(roundTripTime: self.sentVideo?.roundTripTime)
                guard self.remoteFeeds[feedID] != nil else { return }
                self.remoteFeeds[feedID]?.connectionQuality = reception.quality
                self.remoteFeeds[feedID]?.videoNacksSent = reception.videoNacksSent.map(Int.init)
                self.remoteFeeds[feedID]?.videoKeyframeRequestsSent = reception.videoKeyframeRequestsSent.map(Int.init)
                if let bytes = reception.videoBytesReceived {
                    if let last = self.remoteFeeds[feedID]?.videoBytesReceived {
                        self.remoteFeeds[feedID]?.videoBitrate = max(0, bytes - last) * 8
                    }
                    self.remoteFeeds[feedID]?.videoBytesReceived = bytes
                }
            }
        }
        if let publisher {
            Task {
                await publisher.adaptToThePath()
                self.sentVideo = publisher.sent
                self.follow(publisher.mediaPath, silence: publisher.reportSilence, candidates: publisher.localCandidates,
                            heardFromJanus: publisher.hasHeardFromJanus)
            }
        }
        onChange?()
    }

    private func mediaServerLost(_ reason: JanusError) {
        guard !stopped else { return }
        logger.warning("lost the media server", metadata: ["reason": "\(reason)"])
        failed("Lost the connection to the media server: \(reason)")
    }

    // MARK: The network under the connection

    /// Gives up on a path that stays down: long enough that a short dropout (a busy Wi-Fi, a
    /// bandwidth cap's queue) recovers by itself, or at once when the network changed lately.
    private func follow(_ path: MediaPath, silence: Duration?, candidates: LocalCandidates, heardFromJanus: Bool) {
        guard !stopped else { return }
        if path != mediaPath {
            logger.info("media path", metadata: ["path": "\(path)"])
            mediaPath = path
        }
        if let loss = watch.follow(path: path, silence: silence, candidates: candidates, heardFromJanus: heardFromJanus) { lost(loss) }
    }

    /// Addresses or routes changed: a path that is down will not recover on the addresses it
    /// was made on, and one made while the network was away can come up only anew.
    private func networkChanged() {
        guard !stopped else { return }
        let candidates = publisher?.localCandidates ?? .gathering
        logger.info("the network changed", metadata: ["path": "\(mediaPath)", "candidates": "\(candidates)"])
        if let loss = watch.networkChanged(path: mediaPath, candidates: candidates) { lost(loss) }
    }

    private func lost(_ loss: MediaConnectionLoss) {
        guard !stopped, !hasFailed else { return }
        logger.info("giving the media connection up", metadata: ["why": "\(loss)"])
        switch loss {
        case .pathDown: failed(tr("The network connection dropped"))
        case .networkChanged, .madeWithoutAddress: failed(tr("The network changed"))
        }
    }

    private func failed(_ reason: String) {
        guard !stopped, !hasFailed else { return }
        hasFailed = true
        onFailure?(reason)
    }
}

