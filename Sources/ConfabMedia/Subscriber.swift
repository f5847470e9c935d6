import ConfabClient
import ConfabCore
import ConfabProtocol
import FoundationEssentials
import GLibBridge
import JanusProtocol
import Logging

/// A receive-only connection for one remote publisher: video decoded to frames for the UI,
/// audio decoded, metered and played.
@MainActor
final class Subscriber {
    var onFrame: (@MainActor (VideoFrame) -> Void)?
    var onAudioLevel: (@MainActor (Double) -> Void)?
    /// The audio stream appeared: webrtcbin makes it at its first packet (a muted microphone
    /// sends none, so it does not come while the sender is muted).
    var onAudioStream: (@MainActor () -> Void)?
    /// Our answer is made and goes to Janus now: all this connection has to say is said.
    var onAnswerMade: (@MainActor () -> Void)?
    var framesAtLastRefresh = 0
    /// Audio packets counted at the last refresh (see `audioPacketsReceived`).
    var audioPacketsAtLastRefresh = 0
    /// Whether this connection still hears from Janus (followed by `CallMediaSession`).
    var watch = ReceiverWatch()

    private let feed: UInt64
    private let configuration: CallMediaConfiguration
    private let logger: Logger
    /// Internal for tests (what building it made); owned here.
    let pipeline: MediaPipeline
    private let webrtc: WebRTCBin
    private var handle: JanusHandle?
    private var videoMid: String?
    /// The last request about forwarding the video (see `configureVideo`).
    private var configuring: Task<Void, Never>?
    /// What that request asks (forward or not), until Janus has answered it.
    private var configuringSend: Bool?
    private var framesReceived = 0
    private var decoderName: String?
    /// The audio's depayloader, whose input counts the packets that came (see `audioPacketsReceived`).
    private var audioDepayloaderName: String?
    /// Watches for a picture that stopped (see `askForKeyframeIfStalled`).
    private var stallWatch: RepeatingTimer?
    private var framesAtLastWatch = 0
    /// Janus forwards no video while paused (nobody shows this participant).
    private(set) var isVideoPaused = false
    private var stalledWatches = 0
    private var lastFrameAt: ContinuousClock.Instant?
    private let isScreenshare: Bool
    /// Makes the decoded picture into BGRx: a camera at its tile's pixels, a shared screen at
    /// its own size.
    private let scaler = VideoFrameScaler()

    /// - Parameter speakerSink: gst-launch description of where the audio plays.
    /// - Parameter isScreenshare: a shared screen keeps its own size (at most what the sender sends,
    ///   1920x1080) so text stays legible; camera video is scaled to the tile that shows it.
    init(feed: UInt64, isScreenshare: Bool = false, configuration: CallMediaConfiguration, speakerSink: String, logger: Logger) throws {
        self.feed = feed
        self.configuration = configuration
        self.logger = logger
        // Jitterbuffer latency 50 ms: the default 200 delays the first frame (ARCHITECTURE.md).
        pipeline = try MediaPipeline(description: "webrtcbin name=webrtc bundle-policy=max-bundle latency=50")
        guard let webrtc = pipeline.webRTCBin(named: "webrtc") else { throw MediaPipelineError("no webrtcbin") }
        self.webrtc = webrtc
        // Held for the whole 50 ms latency, the first packet of each stream reached the decoder
        // 50 ms after it came: the first frame came ~80 ms after the connection was up, and
        // ~35 ms with this (bench-media's timeline). Two in a row are enough to start in order;
        // later packets wait for their gaps as before.
        webrtc.startJitterbuffersEarly(afterPackets: 2)
        for address in configuration.iceAddresses { webrtc.restrictICE(to: address) }
        self.isScreenshare = isScreenshare
        // The decoded I420 frames are made into BGRx as they arrive (VideoFrameScaler): a
        // camera's at its tile's pixels (the configured size until a tile says); a shared
        // screen's at their own size, only converted (callgrind, a 1080p frame: libyuv 4.7 M
        // instructions, videoconvert to BGRA 20 M), so its text stays legible.
        if !isScreenshare { scaler.outputSize = Self.outputSize(forDisplay: nil, configuration: configuration) }
        webrtc.setIncomingBranches(Self.incomingBranches(speakerSink: speakerSink))
        webrtc.onIncomingStream { [weak self] stream in self?.streamLinked(stream) }
        pipeline.watchBus { [weak self] message in
            switch message {
            case .level(let reading): self?.onAudioLevel?(reading.loudestRMS)
            case .error(let text, let debug, _, _):
                self?.logger.warning("receiver pipeline error", metadata: ["error": "\(text)", "debug": "\(debug ?? "")"])
            default: break
            }
        }
    }

    /// What each incoming stream is decoded by, by media ("{n}" numbers the stream).
    nonisolated static func incomingBranches(speakerSink: String) -> [String: String] {
        let output = "videoconvert ! video/x-raw,format=I420"
        return [
            // On a lost packet the depayloader asks for a keyframe (a PLI through webrtcbin)
            // rather than decode a broken picture until the next one comes by itself.
            "video": "queue ! rtpvp8depay wait-for-keyframe=true request-keyframe=true ! vp8dec name=decoder-{n} ! \(output) ! "
                + "appsink name=frames-{n} max-buffers=1 drop=true sync=false enable-last-sample=false",
            // The sender adds in-band FEC (OpusOffer): a lost packet is rebuilt from the next.
            "audio": "queue ! rtpopusdepay name=audio-depayloader-{n} ! opusdec use-inband-fec=true plc=true ! audioconvert ! level interval=100000000 post-messages=true ! "
                + "audioresample ! \(speakerSink)",
        ]
    }

    /// The size frames are made at for a tile of `display` device pixels; the configured size
    /// while no tile is known.
    nonisolated static func outputSize(forDisplay display: VideoSize?, configuration: CallMediaConfiguration) -> VideoFrameScaler.Size {
        display.map(VideoFrameScaler.Size.shown(in:))
            ?? VideoFrameScaler.Size(width: configuration.remoteVideoWidth, height: configuration.remoteVideoHeight)
    }

    /// Makes the video into `size` (the tile's pixels) from the next frame on. A sender that
    /// changes its size or shape needs nothing: each frame is cut and scaled from its own size.
    func setDisplaySize(_ size: VideoSize?) {
        guard !isScreenshare else { return }
        scaler.outputSize = Self.outputSize(forDisplay: size, configuration: configuration)
    }

    /// - Parameter attaching: a handle already being attached for us (see `CallMediaSession`);
    ///   if it fails, we attach our own.
    func start(on janus: JanusSession, attaching: Task<JanusHandle, any Error>? = nil, privateID: UInt64?) async throws {
        JoinTimeline.mark("subscriber-start", feed: feed)
        // Playing makes the connection's ICE agent: done while the attach is on its way. No
        // candidate comes before our answer is set, so none is lost for want of the handle.
        let played = Result { try pipeline.play() }
        let spare = try? await attaching?.value
        if case .failure(let error) = played {
            // The spare handle was given to us: ours to let go.
            await spare?.detach()
            throw error
        }
        let handle = if let spare { spare } else { try await janus.attachVideoRoom() }
        self.handle = handle
        webrtc.onICECandidate { [weak handle] index, candidate in handle?.trickle(mlineIndex: index, candidate: candidate) }
        JoinTimeline.mark("subscriber-attached", feed: feed)
        let attached = try await handle.request(.joinSubscriber(room: configuration.room, token: configuration.joinToken,
                                                                privateID: privateID, feeds: [feed]))
        guard let offer = attached.jsep, offer.type == .offer else { throw JanusError.unexpectedReply("no SDP offer to receive with") }
        videoMid = attached.data.streams?.first { $0.type == "video" }?.mid
        JoinTimeline.mark("offer-received", feed: feed)
        // Answer passive so Janus starts the DTLS handshake: webrtcbin's first ClientHello was
        // sometimes lost, costing a 1 s retry (ARCHITECTURE.md). (Retransmission requests for
        // lost video packets are turned on as the stream appears: see streamLinked.)
        let passiveAnswer = try await webrtc.answer(offer.sdp) { $0.replacing("a=setup:active", with: "a=setup:passive") }
        JoinTimeline.mark("answer-made", feed: feed)
        // (What it starts waits for the main loop's next turn: the answer is sent first.)
        onAnswerMade?()
        _ = try await handle.request(.start, jsep: .answer(passiveAnswer))
        JoinTimeline.mark("answer-accepted", feed: feed)
        // The connection's transport exists once the offer is set: all it receives is counted
        // from here (`packetsFromJanus`), off the join's path to its first picture.
        pipeline.countOutput(ofEvery: "nicesrc")
        if isVideoPaused { configureVideo(send: false) }
        // Watched from here, not from when the video stream appears: a video paused before any
        // of it came has no stream until Janus forwards it again, and a resume Janus did not act
        // on must be asked again too (CI, 2026-11-27: a feed resumed and received nothing for 30 s).
        stallWatch = RepeatingTimer(interval: 0.3) { [weak self] in self?.askForKeyframeIfStalled() }
    }

    /// Stops (or resumes) receiving the video; audio goes on. Resuming asks Janus to forward it
    /// again, which also asks the publisher for a keyframe: the picture is back at once.
    func setVideoPaused(_ paused: Bool) {
        guard paused != isVideoPaused else { return }
        isVideoPaused = paused
        logger.info(paused ? "video paused" : "video resumed", metadata: ["feed": "\(feed)", "frames": "\(framesReceived)"])
        // Before the connection is up, `start` applies it.
        configureVideo(send: !paused)
        if !paused {
            resumedAt = .now
            framesAtLastWatch = framesReceived
            stalledWatches = 0
            lastFrameAt = .now
        }
    }

    /// Tells Janus whether to forward the video, one request after the other: sent from
    /// separate tasks, a pause (asked as the connection came up) and the resume right after it
    /// (the tile appearing) could reach Janus in the opposite order, leaving the video paused
    /// for good while we took it for resumed.
    ///
    /// Asking for the video again (`send: true` while it is already forwarded) makes Janus ask
    /// the publisher for a keyframe: the stall watch's requests go through here too, so none
    /// can overtake a pause.
    ///
    /// The same request as the last one, while that one still waits for Janus, is not queued
    /// behind it: it would add nothing. Janus unreachable for a while (the network gone), the
    /// watch's asks every 0.3 s piled up behind the first — about fifteen in 5 s, sent one
    /// after the other when Janus came back, or failed together when its socket closed.
    private func configureVideo(send: Bool) {
        guard let handle, let mid = videoMid, configuringSend != send else { return }
        let previous = configuring
        let feed = feed, logger = logger
        configuringSend = send
        let task = Task {
            await previous?.value
            do {
                _ = try await handle.request(.configureSubscription([.init(mid: mid, send: send)]))
            } catch {
                // The watch asks again while a wanted video does not come.
                logger.warning("Janus did not take a request about a video", metadata: ["feed": "\(feed)", "send": "\(send)", "error": "\(error)"])
            }
        }
        configuring = task
        Task { [weak self] in
            await task.value
            // Answered (or failed): the same request may be made again — unless a later one
            // has been queued since, which then is the one waiting.
            if let self, self.configuring == task { self.configuringSend = nil }
        }
    }

    /// After a loss the depayloader waits for a keyframe, and the keyframe requests webrtcbin
    /// sends (PLI) are attributed to the wrong stream in a bundle, so Janus drops them
    /// (ARCHITECTURE.md): a picture that was moving and stopped asks Janus itself, which then
    /// sends the publisher a PLI. Every watch (0.3 s) for 5 s after the last frame, then every
    /// 1.2 s up to 30 s: on a congested link the keyframes asked for first are lost too, and
    /// the sender's own next one can be 4 s away (measured: a 5 s freeze on a 300 kbit/s cap
    /// ended only with it). A camera turned off is not asked forever.
    private func askForKeyframeIfStalled() {
        defer { framesAtLastWatch = framesReceived }
        stalledWatches = framesReceived == framesAtLastWatch ? stalledWatches + 1 : 0
        // (Asking would resume a paused feed: the request that asks is the one that resumes.)
        guard stalledWatches > 0, !isVideoPaused, let lastFrameAt else { return }
        let stalledFor = ContinuousClock.now - lastFrameAt
        guard stalledFor < .seconds(5) || (stalledFor < .seconds(30) && stalledWatches % 4 == 0) else { return }
        if stalledWatches == 1 { logger.info("no video for a moment: asking Janus again", metadata: ["feed": "\(feed)", "frames": "\(framesReceived)"]) }
        configureVideo(send: true)
    }

    func stop() async {
        stallWatch?.cancel()
        stallWatch = nil
        if let handle {
            await handle.detach()
        }
        handle = nil
        pipeline.stop()
    }

    /// What we receive, from webrtcbin's statistics.
    struct Reception {
        var quality: ConnectionQuality
        /// Video bytes received so far.
        var videoBytesReceived: Double?
        /// Retransmission requests (NACK) and keyframe requests (PLI, FIR) we sent for the video.
        var videoNacksSent: Double?
        var videoKeyframeRequestsSent: Double?
    }

    /// Packets received and lost at the last reading: quality is judged on the last second,
    /// not on the whole call (a loss burst a minute ago is no reason to say "poor" now).
    private var lastPacketCounts: (received: Double, lost: Double)?
    private var lastQuality = ConnectionQuality.unknown
    /// When the video was last resumed: Janus forwards it again from the publisher's current
    /// sequence number, and the gap reads as packets lost, which were never sent to us.
    private var resumedAt: ContinuousClock.Instant?

    /// - Parameter roundTripTime: the round trip to the media server (our publisher's, from
    ///   Janus's reports): the same path this video comes over.
    func receptionStatistics(roundTripTime: Double? = nil) async -> Reception {
        let reports = await webrtc.statistics()
        let video = reports.first { $0["type"]?.text == "inbound-rtp" && RTPSourceStatistics.isVideo($0) }
        let keyframeRequests = video.flatMap { report in
            RTPSourceStatistics.value("sent-pli-count", in: report).map { $0 + (RTPSourceStatistics.value("sent-fir-count", in: report) ?? 0) }
        }
        return Reception(quality: connectionQuality(reports, roundTripTime: roundTripTime), videoBytesReceived: video?["bytes-received"]?.number,
                         videoNacksSent: video.flatMap { RTPSourceStatistics.value("sent-nack-count", in: $0) },
                         videoKeyframeRequestsSent: keyframeRequests)
    }

    /// Loss over the last second, jitter and round trip of what we receive, as a quality.
    private func connectionQuality(_ reports: [[String: StatisticValue]], roundTripTime: Double?) -> ConnectionQuality {
        guard let inbound = reports.first(where: { $0["type"]?.text == "inbound-rtp" && $0["kind"]?.text != "audio" })
            ?? reports.first(where: { $0["type"]?.text == "inbound-rtp" }) else { return .unknown }
        let received = inbound["packets-received"]?.number ?? 0
        let lost = max(0, inbound["packets-lost"]?.number ?? 0)
        let jitter = inbound["jitter"]?.number
        defer { lastPacketCounts = (received, lost) }
        guard let last = lastPacketCounts, received > last.received else {
            // Nothing new (a paused or stopped video): what it was when packets last came.
            return lastQuality
        }
        let justResumed = resumedAt.map { ContinuousClock.now - $0 < .seconds(3) } ?? false
        lastQuality = ConnectionQuality(packetsReceived: received - last.received,
                                        packetsLost: justResumed ? 0 : max(0, lost - last.lost),
                                        jitterSeconds: jitter, roundTripTime: roundTripTime)
        return lastQuality
    }

    /// Audio packets that reached the decoder so far (nil before the audio stream came). A
    /// microphone that is on sends packets even in silence (Opus's DTX: one every 400 ms); a
    /// muted one sends none. The packet that made the stream passed before counting began: it
    /// is counted too, or a refresh right after the stream came would find none and say "off".
    var audioPacketsReceived: Int? { audioDepayloaderName.flatMap { pipeline.buffersArrived(atInputOf: $0) }.map { $0 + 1 } }

    /// Every packet this connection received so far, of any kind: media, Janus's reports, the
    /// DTLS handshake (see `ReceiverWatch`); nil until the connection is made.
    var packetsFromJanus: Int? { pipeline.outputCount(ofEvery: "nicesrc") }

    /// Whether media came on this connection: sound, or the video stream (each appears with its
    /// first packet).
    var hasCarriedMedia: Bool { audioDepayloaderName != nil || decoderName != nil }

    /// The size video arrives at (the decoder's output, before scaling for the tile).
    var receivedVideoSize: VideoSize? {
        guard let decoder = decoderName, let size = pipeline.videoSize(ofElement: decoder) else { return nil }
        return VideoSize(width: size.width, height: size.height)
    }

    private func streamLinked(_ stream: WebRTCBin.IncomingStream) {
        JoinTimeline.mark("\(stream.media)-stream-linked", feed: feed)
        let number = stream.branchName.split(separator: "-").last.map(String.init) ?? ""
        if stream.media == "audio" {
            let depayloader = "audio-depayloader-\(number)"
            audioDepayloaderName = depayloader
            pipeline.countBuffers(atInputOf: depayloader)
            onAudioStream?()
        }
        guard stream.media == "video" else { return }
        decoderName = "decoder-\(number)"
        // Ask for lost packets again: webrtcbin sets this on the jitterbuffer only when it finds
        // the stream's transceiver, which it did not for Janus's bundled offer (no NACK was
        // ever sent under loss); the jitterbuffers exist once a stream has been linked.
        let jitterbuffers = pipeline.set("do-retransmission", "true", onEveryElementOf: "rtpjitterbuffer")
        logger.debug("retransmission requests on", metadata: ["jitterbuffers": "\(jitterbuffers)"])
        pipeline.receiveVideoFrames(fromAppSink: "frames-\(number)", scaledBy: scaler) { [weak self] frame in
            guard let self else { return }
            self.framesReceived += 1
            if self.framesReceived == 1 { JoinTimeline.mark("first-frame", feed: self.feed) }
            self.lastFrameAt = .now
            self.onFrame?(frame)
        }
        // Janus asks the publisher for a keyframe only when a subscriber connection comes up; if
        // nothing decoded shortly after the stream appeared, ask through Janus (ARCHITECTURE.md).
        MainLoop.after(seconds: 0.15) { [weak self] in
            guard let self, self.framesReceived == 0, !self.isVideoPaused else { return }
            self.configureVideo(send: true)
        }
    }
}
