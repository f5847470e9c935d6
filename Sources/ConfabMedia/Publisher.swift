import ConfabClient
import ConfabCore
import ConfabProtocol
import FoundationEssentials
import GLibBridge
import JanusProtocol
import Logging

/// Our send-only connection: camera as VP8 and microphone as Opus (with the audio-level header
/// extension Janus uses for talking events), a self-view from the same camera branch.
///
/// The camera and the microphone are *inputs* attached to the running pipeline, so they can
/// change without touching the connection: another device is swapped in while others keep
/// receiving us (same stream, a short gap), and a camera turned off is taken out entirely —
/// the device is closed and its light goes off. Both streams are always negotiated, so a camera
/// or microphone plugged in after joining can be used in the same call.
@MainActor
final class Publisher {
    var onLocalFrame: (@MainActor (VideoFrame) -> Void)?
    /// Makes the camera's frames into the self-view tile's pixels, mirrored.
    private let selfViewScaler = VideoFrameScaler(mirrored: true)
    /// Our microphone's level (dBFS, five times a second), muted or not.
    var onLocalAudioLevel: (@MainActor (Double) -> Void)?
    var onRoomEvent: (@MainActor (RoomEvent) -> Void)?
    /// Joined the room (our private id is known): the publishers already there.
    var onJoinedRoom: (@MainActor ([PublishedFeed]) -> Void)?
    /// The camera or microphone stopped working (unplugged, taken by another program) or could
    /// not be opened: the device, and GStreamer's words for it. It has been taken out already.
    var onInputFailed: (@MainActor (MediaDevice, String) -> Void)?

    private let configuration: CallMediaConfiguration
    private let logger: Logger
    private let deviceSource: GStreamerDeviceSource
    /// Internal for tests (what building it made); owned here.
    let pipeline: MediaPipeline
    private let webrtc: WebRTCBin
    private var camera: MediaDevice?
    private var microphone: MediaDevice?
    private var isVideoOn = true
    /// When the camera input was attached, and its last frame: a camera that opens but gives no
    /// picture (stuck, or taken by another program) is noticed by `checkCamera`.
    private var cameraAttachedAt: ContinuousClock.Instant?
    private var lastCameraFrameAt: ContinuousClock.Instant?
    /// Camera frames counted at the camera's tee when `checkCamera` last looked: counted as they
    /// arrive (whether the self-view is shown or not), not as the main loop shows them — a loaded machine (the 30-minute soak, load 30
    /// on two cores) once had a running camera judged stuck and taken out for the rest of the call.
    private var cameraFramesSeen = 0
    /// How long a camera that is on may give no picture before it counts as failed.
    static let cameraSilenceLimit: Duration = .seconds(4)
    /// A camera opened again after its caps could not be agreed (`inputFailed`): three times a
    /// minute at most; a fourth is a camera that keeps failing, reported as such.
    private var cameraRestarts = RestartAllowance(limit: 3, within: .seconds(60))
    private var handle: JanusHandle?
    /// Janus's private id for our publisher; rooms require it from our subscribers (require_pvtid),
    /// so only someone admitted with a token can watch.
    private(set) var privateID: UInt64?

    /// Bitrate, size and frame rate from what the path carries (see `adaptToThePath`).
    private var rate: SendRateController
    /// The size the camera's frames are taken at (`followCameraSize`).
    private var cameraSize: VideoSize
    /// Whether this device shows our camera, and the self-view tile's pixels (nil: not told).
    private var isSelfViewShown = false
    private var selfViewDisplaySize: VideoSize?
    /// Loss from Janus's receiver reports, pooled over enough packets.
    private var reportedLoss = ReportedLoss()
    /// When Janus last reported on what we send (audio or video): it reports about once a second
    /// while it receives it, so a long silence while we send means the path is down.
    private var lastReportAt: ContinuousClock.Instant?
    static let pathDownAfter: Duration = .seconds(3)
    /// The highest sequence number each of Janus's receiver reports covered, by report: a report
    /// is new when it covers packets the last one did not.
    private var reportedSequences: [String: Double] = [:]
    /// The packets Janus had sent us on this connection at the last look (`followThePath`).
    private var packetsFromJanus = 0
    /// Whether what we send reaches Janus (see `MediaPath`).
    private(set) var mediaPath = MediaPath.connecting
    /// How long since Janus last reported on what we send; nil before its first report.
    var reportSilence: Duration? { lastReportAt.map { .now - $0 } }
    private var isAudioOn = true
    private var lastVideoBytesSent: Double?
    /// The receiver's transport feedback of the last second, read four times a second.
    private var transportFeedback = TransportFeedbackPool()
    private var transportFeedbackReading: RepeatingTimer?
    private var lastAudioBytesSent: Double?
    /// What we sent, refreshed by `adaptToThePath`.
    private(set) var sent: SentVideo?

    private static let cameraInput = "camera-input"
    private static let microphoneInput = "microphone-input"

    /// - Parameters:
    ///   - echoProbeName: the speaker's `webrtcechoprobe` (see `CallSpeaker`); it must exist before `start`.
    init(configuration: CallMediaConfiguration, devices: CallMediaDevices, deviceSource: GStreamerDeviceSource,
         echoProbeName: String, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        self.deviceSource = deviceSource
        rate = SendRateController(maximumSize: configuration.maximumVideoSize)
        cameraSize = rate.cameraSize(selfView: .hidden)
        camera = devices.camera.flatMap { deviceSource.source(for: $0) != nil ? $0 : nil }
        microphone = devices.microphone.flatMap { deviceSource.source(for: $0) != nil ? $0 : nil }
        // Video first, then audio: webrtcbin names the m-lines "video0" and "audio1" (the
        // server's broadcast forwards them by those names). The leaky queues keep the inputs'
        // threads from ever waiting on the connection (webrtcbin holds data back until DTLS is
        // up): an input waiting there could not be taken out.
        let description = "webrtcbin name=webrtc bundle-policy=max-bundle "
            + "tee name=camera-tee "
            + "camera-tee. ! \(Self.selfViewBranch) "
            + "camera-tee. ! queue name=send-video-queue leaky=downstream max-size-buffers=2 ! \(Self.adaptiveVideoChain(rate.step)) ! valve name=video-valve drop=false ! "
            + "\(Self.videoEncoderDescription(rate.step, framerate: configuration.videoFramerate, bitrate: rate.targetBitrate)) ! "
            + "rtpvp8pay name=video-pay pt=96 picture-id-mode=15-bit mtu=1200 ! "
            + "application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000,rtcp-fb-transport-cc=(boolean)true ! webrtc. "
            // The first level is what the user says (before processing: "you are muted" hints);
            // the second marks what is sent for the audio-level header extension (processing
            // makes new buffers, so the mark must come after it).
            + "queue name=microphone-queue leaky=downstream ! level name=microphone-level post-messages=true interval=200000000 ! "
            + Self.voiceProcessingDescription(configuration.audioProcessing, echoProbe: echoProbeName)
            + "level name=sent-level audio-level-meta=true post-messages=false ! valve name=audio-valve drop=false ! "
            // In-band FEC: a lost packet is rebuilt from the next one; DTX: silence sends almost
            // nothing (the payloader then skips the empty packets). See OpusOffer for the SDP.
            + "opusenc bitrate=48000 inband-fec=true dtx=true ! "
            + "rtpopuspay name=audio-pay pt=111 mtu=1200 dtx=true ! application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000 ! webrtc."
        pipeline = try MediaPipeline(description: description)
        // The microphone and camera are replaced while it plays (`MediaPipeline.useSystemClock`).
        pipeline.useSystemClock()
        guard let webrtc = pipeline.webRTCBin(named: "webrtc") else { throw MediaPipelineError("no webrtcbin") }
        self.webrtc = webrtc
        // The audio-level header extension lets Janus send talking events (audiolevel_event).
        if !pipeline.addHeaderExtension(.audioLevel, toPayloader: "audio-pay", id: 1) {
            logger.warning("the audio-level RTP header extension is not available; nobody will be shown speaking")
        }
        // Janus answers every packet carrying a transport-wide sequence number with when it
        // arrived (TWCC, every 200 ms): what the path delivers, well before a receiver report
        // says anything (see `TransportFeedback`). Audio shares the path, so it is counted too.
        for payloader in ["video-pay", "audio-pay"] where !pipeline.addHeaderExtension(.transportWideCC, toPayloader: payloader, id: 3) {
            logger.warning("the transport-wide congestion control extension is not available; the send rate follows receiver reports only")
        }
        for address in configuration.iceAddresses { webrtc.restrictICE(to: address) }
        Self.separateInputs(fromTheirBranchesIn: pipeline)
        // Transceivers exist once the payloaders are linked: video, then audio.
        for index in 0..<2 { webrtc.setTransceiverProperty(index: index, "direction", "sendonly") }
        webrtc.setTransceiverProperty(index: 0, "do-nack", "true")
        selfViewScaler.outputSize = Self.selfViewOutputSize(forDisplay: nil, configuration: configuration)
        pipeline.receiveVideoFrames(fromAppSink: "self-view", scaledBy: selfViewScaler) { [weak self] frame in
            self?.onLocalFrame?(frame)
        }
        // The camera watchdog counts frames where they enter, whether or not the self-view is shown.
        pipeline.countBuffers(atInputOf: "camera-tee")
        transportFeedbackReading = RepeatingTimer(interval: 0.25) { [weak self] in
            guard let self, let summary = self.webrtc.transportFeedbackSummary(), let feedback = TransportFeedback(summary: summary) else { return }
            self.transportFeedback.add(feedback)
        }
        pipeline.watchBus { [weak self] message in
            switch message {
            case .level(let reading):
                // Measured before the mute valve: it tells when someone talks while muted.
                self?.onLocalAudioLevel?(reading.loudestRMS)
            case .error(let text, let debug, let source, let stop):
                self?.logger.warning("publisher pipeline error", metadata: ["error": "\(text)", "debug": "\(debug ?? "")"])
                self?.inputFailed(at: source, text, stop: stop)
            default:
                break
            }
        }
    }

    /// WebRTC's voice processing (`webrtcdsp`, at 48 kHz like the speaker's probe), or nothing
    /// when all of it is off. The DSP finds the probe by name when the pipeline starts and keeps
    /// it: the microphone can change under it (inputs are upstream of the queue) and the
    /// speaker's sink can change after the probe, without pairing again.
    static func voiceProcessingDescription(_ processing: AudioProcessing, echoProbe: String) -> String {
        // Without the plugin (some distributions package it apart) the call still works, unprocessed.
        guard processing.isAnyOn, GStreamer.hasElement("webrtcdsp") else { return "" }
        // Noise suppression "high": "moderate" took ~11 dB off white noise under a voice-like
        // signal here, "high" ~14 dB, with no more damage to tone bursts.
        return "audioconvert ! audio/x-raw,format=S16LE,rate=48000,channels=1 ! webrtcdsp name=voice-processing "
            + "probe=\(echoProbe) echo-cancel=\(processing.echoCancellation) noise-suppression=\(processing.noiseSuppression) "
            + "noise-suppression-level=high gain-control=\(processing.automaticGainControl) ! audioconvert ! "
    }

    /// What the inputs' threads must not depend on in the branches behind their queues: the
    /// connection (webrtcbin holds data back until DTLS is up), which a serialized query would
    /// wait for; and the send chain's filters, which the path changes (`useStep`) while the
    /// camera's size follows the views (`followCameraSize`). The tee asks every branch when the
    /// camera renegotiates, and a send chain changed while the question crossed it answered
    /// with caps nothing could meet (its rate filter's new frame rate against the old one it
    /// had just passed on): the camera stopped with not-negotiated and was taken out for the
    /// call (seen under load, CI's SendingTheSizeShown; `PublisherVideoChain_Tests`). The send
    /// chain scales and thins whatever I420 comes, so its queue says so itself.
    static func separateInputs(fromTheirBranchesIn pipeline: MediaPipeline) {
        for queue in ["send-video-queue", "microphone-queue"] { pipeline.answerSerializedQueries(atInputOf: queue) }
        pipeline.answerCapsQueries(atInputOf: "send-video-queue", with: "video/x-raw,format=I420")
    }

    /// The camera's frames at `cameraSize`: every camera gives the same format, so one can
    /// replace another while the encoder runs.
    private func cameraInputDescription(_ source: String) -> String {
        Self.cameraInputDescription(source, size: cameraSize, framerate: configuration.videoFramerate)
    }

    /// `source`'s frames at `size` and `framerate`, in I420. The size changes while the camera
    /// runs (`followCameraSize`), so, as in `adaptiveVideoChain`, the scaler sits right before
    /// the filter that asks for it (there, videorate in between once let an old-size frame
    /// reach the filter and stop the camera): frames already on their way at the old size are
    /// scaled to the new one, while the source, asked again, makes the new size itself where
    /// it can (the test camera; a real camera keeps the mode it was opened in, behind
    /// decodebin, and the scaler makes the size from it).
    ///
    /// `skip-to-first`: a camera attached to the running chain (turned on again, switched,
    /// opened again) starts a new segment at 0 while its frames carry the pipeline's time.
    /// videorate otherwise stamps its first frame at the segment's start and fills the gap up
    /// to the real time with copies; the encoder dropped the first of those, and with it the
    /// keyframe asked for then (a request already taken blocks the next), so the others saw
    /// the camera only with the encoder's own next keyframe, up to 2 s later
    /// (PublisherCameraBack_Tests).
    ///
    /// `caps-change-mode=delayed`: the size filter keeps taking the caps it asked for before
    /// until frames of the new ones come. Its caps are changed from the main thread while the
    /// camera's thread renegotiates; with the default mode a change that landed between that
    /// thread's question and its answer turned the answer down, and the camera stopped with
    /// not-negotiated: a few times in CI's stress runs, and within 2–3 s at hundreds of changes
    /// a second (`PublisherVideoChain_Tests`; 200 s of them pass now).
    nonisolated static func cameraInputDescription(_ source: String, size: VideoSize, framerate: Int) -> String {
        // (Caps at the end of a description need an explicit capsfilter.)
        "\(source) ! videorate skip-to-first=true ! videoconvert ! videoscale ! capsfilter name=camera-size caps-change-mode=delayed caps=\"\(cameraCaps(size, framerate: framerate))\""
    }

    nonisolated static func cameraCaps(_ size: VideoSize, framerate: Int) -> String {
        "video/x-raw,format=I420,width=\(size.width),height=\(size.height),framerate=\(framerate)/1,pixel-aspect-ratio=1/1"
    }

    /// Takes the camera at the size its views need (`SendRateController.cameraSize`), from the
    /// next frames on.
    private func followCameraSize() {
        let size = rate.cameraSize(selfView: selfView)
        guard size != cameraSize else { return }
        cameraSize = size
        logger.info("taking the camera at the size shown", metadata: ["size": "\(size.width)x\(size.height)"])
        Self.takeCamera(at: size, framerate: configuration.videoFramerate, in: pipeline)
    }

    /// Asks the running camera input (`cameraInputDescription`) for `size` from its next frames on.
    static func takeCamera(at size: VideoSize, framerate: Int, in pipeline: MediaPipeline) {
        pipeline.set("caps", cameraCaps(size, framerate: framerate), onElement: "camera-size")
    }

    /// The frame rate and size sent, which follow the path (`useStep` on a running pipeline); a
    /// new size restarts the encoder with a keyframe, which the receivers decode as is. Each
    /// changing filter sits right after the one element that can meet it: with videorate
    /// behind videoscale, a new size reached videorate first now and then, which cannot change
    /// sizes, and the camera stopped with "not-negotiated" (PublisherVideoChain_Tests).
    /// Both filters in `caps-change-mode=delayed`, as the camera's: they are changed from the
    /// main thread while frames flow, and in the default mode a frame negotiated just before a
    /// change met the new caps and stopped the chain, and the camera behind it, with
    /// "not-negotiated" (twice in clean-clone CI runs, beside the UI suites).
    static func adaptiveVideoChain(_ step: VideoQualityStep) -> String {
        "videorate drop-only=true ! capsfilter name=send-rate caps-change-mode=delayed caps=\"\(sendRateCaps(step))\" ! videoscale ! "
            + "capsfilter name=send-size caps-change-mode=delayed caps=\"\(sendSizeCaps(step))\""
    }

    /// The send chain's encoder, `video-encoder`, starting at `step` (`useStep` changes its speed).
    /// A GOP of at most 2 s is the backstop for late joiners (ARCHITECTURE.md, keyframes).
    /// CBR: a real-time link wants a steady rate, not VBR's bursts over the target.
    static func videoEncoderDescription(_ step: VideoQualityStep, framerate: Int, bitrate: Int) -> String {
        "vp8enc name=video-encoder deadline=1 cpu-used=\(encoderSpeed(for: step)) end-usage=cbr keyframe-max-dist=\(framerate * 2) "
            + "target-bitrate=\(bitrate) error-resilient=partitions"
    }

    /// Sends `step` from now on through a running `adaptiveVideoChain`.
    static func useStep(_ step: VideoQualityStep, in pipeline: MediaPipeline) {
        pipeline.set("caps", sendRateCaps(step), onElement: "send-rate")
        pipeline.set("caps", sendSizeCaps(step), onElement: "send-size")
        pipeline.set("cpu-used", "\(encoderSpeed(for: step))", onElement: "video-encoder")
    }

    /// Sends no larger than the call shows our camera, from the next frame on.
    func limitCamera(to shown: ShownSize) {
        let bitrate = rate.targetBitrate
        let stepChanged = rate.limit(to: shown)
        if rate.targetBitrate != bitrate { pipeline.set("target-bitrate", "\(rate.targetBitrate)", onElement: "video-encoder") }
        followCameraSize()
        guard stepChanged else { return }
        logger.info("sending video at the size shown", metadata: ["step": "\(rate.step)", "shown": "\(shown)"])
        Self.useStep(rate.step, in: pipeline)
    }

    /// vp8enc's speed setting for a step (`meson-helpers/bench-encoder`, PERFORMANCE.md, third
    /// round): from 360p up the fastest setting costs a third to a half less CPU for a picture
    /// within 0.3 dB (720p: 6.2 instead of 11.8 ms a frame — a sixth of a core at 30 fps); at
    /// 180p it cost 1.9 dB for 0.4 ms a frame, which is not worth it. A small picture at 30 fps
    /// (a small tile's size, `SendRateController.limit(to:)`) is sent because it is enough, not
    /// because the path is poor: it gets the fast setting too, or it would cost more than the
    /// 360p it replaces.
    nonisolated static func encoderSpeed(for step: VideoQualityStep) -> Int {
        step.size.height >= 360 || step.framerate >= 30 ? 16 : 8
    }

    private static func sendRateCaps(_ step: VideoQualityStep) -> String { "video/x-raw,framerate=\(step.framerate)/1" }

    private static func sendSizeCaps(_ step: VideoQualityStep) -> String {
        "video/x-raw,width=\(step.size.width),height=\(step.size.height),pixel-aspect-ratio=1/1"
    }

    /// The self-view's branch from the camera's tee to the `self-view` appsink, whose I420
    /// frames `selfViewScaler` makes into the self-view tile's pixels, mirrored (as in the
    /// lobby; what is sent is not). The valve is closed while nobody shows the self-view
    /// (confab-peer, the minimized window, a layout without our tile): frames are dropped
    /// there, before any work (`setSelfViewShown`).
    ///
    /// The size is the scaler's, read per frame: renegotiating this branch's caps while the
    /// camera ran stopped the camera itself with "not-negotiated" (the tee hands a branch's
    /// failure back to the camera's thread) in about one bench-media run in five.
    static let selfViewBranch = "valve name=self-view-valve drop=true ! queue leaky=downstream max-size-buffers=1 ! "
        + "appsink name=self-view max-buffers=1 drop=true sync=false enable-last-sample=false"

    /// The self-view's size for a tile of `display` device pixels; without a tile, the sent
    /// size's 16:9 at 360p at most.
    nonisolated static func selfViewOutputSize(forDisplay display: VideoSize?, configuration: CallMediaConfiguration) -> VideoFrameScaler.Size {
        let largest = configuration.maximumVideoSize
        return display.map(VideoFrameScaler.Size.shown(in:)) ?? VideoFrameScaler.Size(largest.height <= 360 ? largest : VideoSize(width: 640, height: 360))
    }

    /// The self-view tile is `size` device pixels now (nil: none says): frames come at that
    /// size from the next one on.
    func setSelfViewDisplaySize(_ size: VideoSize?) {
        selfViewScaler.outputSize = Self.selfViewOutputSize(forDisplay: size, configuration: configuration)
        selfViewDisplaySize = size
        followCameraSize()
    }

    /// How large this device shows our camera.
    private var selfView: SendRateController.SelfViewSize {
        guard isSelfViewShown else { return .hidden }
        return selfViewDisplaySize.map { .shown($0) } ?? .unknown
    }

    private func attachCamera(_ device: MediaDevice) throws {
        guard let source = deviceSource.source(for: device) else { throw MediaPipelineError("\(device.name) is gone") }
        let decode = device.isTest ? "" : " ! decodebin"
        // Opened in the mode that covers the largest size we may send, whatever is sent now:
        // a camera (behind its decoder) is not renegotiated as views change.
        let mode = CameraCapture.mode(for: source, covering: rate.largestStep.size, framerate: configuration.videoFramerate)
        if let mode { logger.info("opening the camera", metadata: ["mode": "\(mode.mode)"]) }
        let inMode = mode.map { " ! capsfilter caps=\"\($0.caps)\"" } ?? ""
        try pipeline.attachInput(named: Self.cameraInput, description: cameraInputDescription(source.fragment(named: "camera-source") + inMode + decode),
                                 sources: ["camera-source": source], to: "camera-tee")
        cameraAttachedAt = .now
        lastCameraFrameAt = nil
        cameraFramesSeen = pipeline.buffersArrived(atInputOf: "camera-tee") ?? 0
    }

    /// Called now and then (once a second): a camera that is on but has given no picture for
    /// `cameraSilenceLimit` is taken out and reported as failed, like one that errors.
    func checkCamera(now: ContinuousClock.Instant = .now) {
        guard isVideoOn, isCameraOpen, let camera, let attached = cameraAttachedAt else { return }
        let arrived = pipeline.buffersArrived(atInputOf: "camera-tee") ?? 0
        if arrived != cameraFramesSeen {
            cameraFramesSeen = arrived
            lastCameraFrameAt = now
        }
        guard now - (lastCameraFrameAt ?? attached) > Self.cameraSilenceLimit else { return }
        pipeline.detachInput(named: Self.cameraInput)
        cameraAttachedAt = nil
        onInputFailed?(camera, "it gives no picture")
    }

    /// Mono at 48 kHz whatever the microphone gives, so one can replace another while Opus runs.
    private func microphoneInputDescription(_ source: String) -> String {
        "\(source) ! audioconvert ! audioresample ! capsfilter caps=\"audio/x-raw,rate=48000,channels=1\""
    }

    private func attachMicrophone(_ device: MediaDevice) throws {
        guard let source = deviceSource.source(for: device) else { throw MediaPipelineError("\(device.name) is gone") }
        try pipeline.attachInput(named: Self.microphoneInput, description: microphoneInputDescription(source.fragment(named: "microphone-source")),
                                 sources: ["microphone-source": source], to: "microphone-queue")
    }

    /// Joins the room as a publisher, publishes, and returns the publishers already there.
    func start(on janus: JanusSession, settings: CallSettings) async throws -> [PublishedFeed] {
        let handle = try await janus.attachVideoRoom()
        self.handle = handle
        handle.onEvent = { [weak self] event in
            RoomEvent.parse(event.videoRoom).forEach { self?.onRoomEvent?($0) }
        }
        let joined = try await handle.request(.joinPublisher(room: configuration.room, token: configuration.joinToken,
                                                             display: configuration.display))
        let existing = PublishedFeed.list(in: joined.data)
        JoinTimeline.mark("joined-room")
        privateID = joined.data.privateID
        // Receiving those already there need not wait for our own publishing (the camera opening,
        // the offer and answer): their first frames come that much sooner.
        onJoinedRoom?(existing)

        webrtc.onICECandidate { [weak handle] index, candidate in handle?.trickle(mlineIndex: index, candidate: candidate) }
        // The offer must carry each stream's SSRC, which webrtcbin knows only once the payloader
        // has negotiated; without it Janus cannot tell the bundled streams apart and drops video.
        // Where the camera is off (or there is none, or it will not open) black frames stand in,
        // and silence for a missing microphone: nothing is sent before the offer, and they are
        // taken out once it is made. So joining with the camera off never opens it.
        let cameraOpened = settings.videoOn && camera.map { attach($0, kind: .camera) } == true
        if !cameraOpened {
            try pipeline.attachInput(named: Self.cameraInput, description: cameraInputDescription("videotestsrc is-live=true pattern=black"),
                                     to: "camera-tee")
        }
        let microphoneOpened = microphone.map { attach($0, kind: .microphone) } == true
        if !microphoneOpened {
            try pipeline.attachInput(named: Self.microphoneInput,
                                     description: microphoneInputDescription("audiotestsrc is-live=true wave=silence"), to: "microphone-queue")
        }
        try pipeline.play()
        try await waitUntilPayloadersNegotiated()
        JoinTimeline.mark("payloaders-negotiated")
        if !cameraOpened { pipeline.detachInput(named: Self.cameraInput) }
        if !microphoneOpened { pipeline.detachInput(named: Self.microphoneInput) }
        setSending(audio: settings.audioOn)
        setSending(video: settings.videoOn)
        let offer = try await webrtc.offer { OpusOffer.addingParameters(to: $0, payloadType: 111) }
        // The transport exists once the offer is set: what Janus sends on it is counted from
        // here (`followThePath`).
        pipeline.countOutput(ofEvery: "nicesrc")
        let configured = try await handle.request(.publish, jsep: .offer(offer))
        guard let answer = configured.jsep, answer.type == .answer else { throw JanusError.unexpectedReply("no SDP answer to our offer") }
        try await webrtc.setRemoteDescription(.answer, sdp: answer.sdp)
        JoinTimeline.mark("published")
        return existing
    }

    private func waitUntilPayloadersNegotiated() async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !["video-pay", "audio-pay"].allSatisfy({ pipeline.hasNegotiated(element: $0) }) {
            guard ContinuousClock.now < deadline else { throw MediaPipelineError("the camera or microphone produced nothing to send") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Turns sending of audio and/or video on or off. Off sends nothing (the valve drops it).
    /// Video off also takes the camera out, so its light goes off; video back on opens it again
    /// and starts with a keyframe so others see it at once. A device taken out after it failed
    /// is tried again when turned on.
    func setSending(audio: Bool? = nil, video: Bool? = nil) {
        if let audio {
            isAudioOn = audio
            pipeline.set("drop", audio ? "false" : "true", onElement: "audio-valve")
            if audio, !pipeline.hasElement(named: Self.microphoneInput), let microphone { attach(microphone, kind: .microphone) }
        }
        if let video {
            isVideoOn = video
            pipeline.set("drop", video ? "false" : "true", onElement: "video-valve")
            if video {
                if !isCameraOpen, let camera { attach(camera, kind: .camera) }
                pipeline.requestKeyframe(upstreamOf: "video-pay")
            } else {
                pipeline.detachInput(named: Self.cameraInput)
            }
        }
    }

    /// Converts the camera's frames for the self-view (`onLocalFrame`) while someone shows it;
    /// otherwise they are dropped as they leave the camera's tee.
    func setSelfViewShown(_ shown: Bool) {
        pipeline.set("drop", shown ? "false" : "true", onElement: "self-view-valve")
        isSelfViewShown = shown
        followCameraSize()
    }

    /// The self-view shows one camera frame in `step` (`SelfViewRate`); dropped before any work.
    func setSelfViewFrameStep(_ step: Int) {
        pipeline.letThrough(oneBufferIn: step, atInputOf: "self-view-valve")
    }

    /// Switches to other devices while sending: others keep receiving the same streams, now
    /// from the new camera or microphone (also one plugged in after joining). The same device
    /// again is tried anew when its input failed and was taken out.
    func use(camera newCamera: MediaDevice?, microphone newMicrophone: MediaDevice?) {
        if let newCamera, !newCamera.isSameDevice(as: camera) || (isVideoOn && !isCameraOpen) {
            camera = newCamera
            if isVideoOn {
                attach(newCamera, kind: .camera)
                pipeline.requestKeyframe(upstreamOf: "video-pay")
            }
        }
        if let newMicrophone, !newMicrophone.isSameDevice(as: microphone) || !pipeline.hasElement(named: Self.microphoneInput) {
            microphone = newMicrophone
            attach(newMicrophone, kind: .microphone)
        }
    }

    /// Opens `device` as our camera or microphone input; reports it as failed if it will not open.
    @discardableResult
    private func attach(_ device: MediaDevice, kind: MediaDevice.Kind) -> Bool {
        do {
            if kind == .camera { try attachCamera(device) } else { try attachMicrophone(device) }
            return true
        } catch {
            logger.warning("could not open a device", metadata: ["device": "\(device.name)", "error": "\(error)"])
            onInputFailed?(device, "\(error)")
            return false
        }
    }

    /// An error from inside the camera or microphone input: take that input out (the rest of
    /// the call goes on) and report which device failed — except a camera whose stream stopped
    /// because caps could not be agreed (`StreamStop.notNegotiated`): its size follows the
    /// views, and a size asked for while the last one was still being agreed on can leave the
    /// camera's chain with nothing to agree on. Nothing is wrong with the device, so it is
    /// opened again at the size wanted now (`cameraRestarts` says how often that may happen
    /// before it counts as failed after all).
    private func inputFailed(at source: String?, _ text: String, stop: StreamStop?) {
        guard let source else { return }
        // The path names each parent as "Type:name": "/GstPipeline:pipeline1/GstBin:camera-input/…".
        let parents = source.split(separator: "/").map { $0.split(separator: ":").last.map(String.init) ?? "" }
        let failed: MediaDevice?
        if parents.contains(Self.cameraInput) {
            if stop == .notNegotiated, isVideoOn, let camera, cameraRestarts.take(at: .now) {
                logger.info("the camera's format changed under it; opening it again", metadata: ["camera": "\(camera.name)"])
                if attach(camera, kind: .camera) { pipeline.requestKeyframe(upstreamOf: "video-pay") }
                return
            }
            pipeline.detachInput(named: Self.cameraInput)
            failed = camera
        } else if parents.contains(Self.microphoneInput) {
            pipeline.detachInput(named: Self.microphoneInput)
            failed = microphone
        } else {
            return
        }
        if let failed { onInputFailed?(failed, text) }
    }

    /// Once a second: reads what Janus's receiver reports say about our video (loss, round
    /// trip), what its transport feedback said over the second (`transportFeedback`) and what
    /// we sent, and sets the encoder's bitrate, size and frame rate from them.
    func adaptToThePath() async {
        let reports = await webrtc.statistics()
        followThePath(reports)
        guard let outbound = reports.first(where: { $0["type"]?.text == "outbound-rtp" && RTPSourceStatistics.isVideo($0) }) else { return }
        let bytes = outbound["bytes-sent"]?.number
        let bitrate = Self.bitsPerSecond(bytes, since: lastVideoBytesSent)
        lastVideoBytesSent = bytes
        let audioBytes = reports.first { $0["type"]?.text == "outbound-rtp" && !RTPSourceStatistics.isVideo($0) }?["bytes-sent"]?.number
        let audioBitrate = Self.bitsPerSecond(audioBytes, since: lastAudioBytesSent) ?? 0
        lastAudioBytesSent = audioBytes
        let remote = reports.first { $0["type"]?.text == "remote-inbound-rtp" && $0["local-id"]?.text == outbound["id"]?.text }
        // A report is new when it covers packets the last one did not (Janus reports about
        // once a second; none at all while the path is down): then there is a loss to tell.
        var loss: Double?
        if let remote, let sequence = RTPSourceStatistics.value("rb-exthighestseq", in: remote),
           let lost = RTPSourceStatistics.value("rb-packetslost", in: remote) {
            loss = reportedLoss.add(highestSequence: Int(sequence), cumulativeLost: Int(lost))
        }
        let roundTrip = loss != nil ? remote?["round-trip-time"]?.number : nil
        let transport = transportFeedback.take()
        if isVideoOn, let bitrate {
            let stepChanged = rate.update(with: SendFeedback(lossFraction: loss, roundTripTime: roundTrip, sentBitrate: bitrate, transport: transport,
                                                             audioBitrate: audioBitrate))
            // The congestion is answered (the rate was cut, or is at its floor already): start
            // pooling anew, or the loss would block growth for seconds after the link cleared.
            if rate.isCongested { reportedLoss.reset() }
            if rate.isPathSilent { reportedLoss.startOver() }
            pipeline.set("target-bitrate", "\(rate.targetBitrate)", onElement: "video-encoder")
            if stepChanged {
                logger.info("sending video at another size", metadata: ["step": "\(rate.step)", "bitrate": "\(rate.targetBitrate)"])
                Self.useStep(rate.step, in: pipeline)
            }
        }
        let encoded = pipeline.videoSize(ofElement: "video-encoder").map { VideoSize(width: $0.width, height: $0.height) }
        let captured = pipeline.videoSize(ofElement: "camera-source").map { VideoSize(width: $0.width, height: $0.height) }
        sent = SentVideo(size: encoded ?? rate.step.size, framerate: rate.step.framerate, cameraSize: captured, bytesSent: bytes, bitrate: bitrate,
                         targetBitrate: rate.targetBitrate, lossFraction: loss ?? sent?.lossFraction, roundTripTime: roundTrip ?? sent?.roundTripTime,
                         transport: transport ?? sent?.transport)
    }

    /// Bits a second from a byte counter read once a second and its reading before (nil
    /// until there are two readings).
    private static func bitsPerSecond(_ bytes: Double?, since last: Double?) -> Double? {
        guard let bytes, let last else { return nil }
        return max(0, bytes - last) * 8
    }

    /// Whether Janus's receiver reports about our audio or video keep coming (`mediaPath`).
    /// Until the first one the connection is still being made; after that, three seconds
    /// without one while we send is a path that is down. Sending nothing (microphone muted,
    /// camera off) leaves nothing to report on, so the path counts as up.
    ///
    /// webrtcbin's statistics drop a stream ~10 s after its last packet and do not bring it back
    /// when it sends again: someone who joined muted with the camera off and unmuted later had
    /// no report of what they sent, ever, and their whole connection was given up 9 s after they
    /// unmuted ("Reconnecting audio and video…", everyone gone for a moment). With no report in
    /// the statistics at all, any packet Janus sent on the connection since the last look (its
    /// receiver reports, about one a second while it receives) tells the path is up.
    private func followThePath(_ reports: [[String: StatisticValue]], now: ContinuousClock.Instant = .now) {
        let receiverReports = reports.filter { $0["type"]?.text == "remote-inbound-rtp" }
        for report in receiverReports {
            guard let id = report["id"]?.text, let sequence = RTPSourceStatistics.value("rb-exthighestseq", in: report) else { continue }
            if sequence > reportedSequences[id] ?? -1 { lastReportAt = now }
            reportedSequences[id] = sequence
        }
        let packets = pipeline.outputCount(ofEvery: "nicesrc") ?? 0
        defer { packetsFromJanus = packets }
        if receiverReports.isEmpty, lastReportAt != nil, packets > packetsFromJanus { lastReportAt = now }
        if !isAudioOn, !isVideoOn {
            lastReportAt = now
        }
        guard let lastReportAt else { return }
        mediaPath = now - lastReportAt > Self.pathDownAfter ? .down : .up
    }

    /// Whether Janus sent anything at all on the connection yet (DTLS, RTCP, media), as of the
    /// last look at the path: nothing means ICE never came up (`MediaConnectionWatch`).
    var hasHeardFromJanus: Bool { packetsFromJanus > 0 }

    /// What ICE gathered for our connection: none at all means it was made while the network
    /// was away (see `LocalCandidates`).
    var localCandidates: LocalCandidates {
        LocalCandidates(gathered: webrtc.localCandidatesGathered, isGatheringComplete: webrtc.iceGatheringState == .complete)
    }

    /// Whether the camera device is open (false while video is off, or without a camera).
    var isCameraOpen: Bool { pipeline.hasElement(named: "camera-source") }

    func stop() async {
        if let handle {
            _ = try? await handle.request(.leave, timeout: .seconds(2))
            await handle.detach()
        }
        handle = nil
        transportFeedbackReading?.cancel()
        transportFeedbackReading = nil
        pipeline.stop()
    }
}

/// How many restarts are allowed within a sliding window of time.
struct RestartAllowance {
    let limit: Int
    let window: Duration
    private var taken: [ContinuousClock.Instant] = []

    init(limit: Int, within window: Duration) {
        self.limit = limit
        self.window = window
    }

    /// Takes one restart at `now` if fewer than `limit` were taken within the window before it.
    mutating func take(at now: ContinuousClock.Instant) -> Bool {
        taken.removeAll { now - $0 >= window }
        guard taken.count < limit else { return false }
        taken.append(now)
        return true
    }
}
