import ConfabClient
import ConfabCore
import ConfabProtocol
import Foundation
import GLibBridge
import Logging

/// Our send-only connection: camera as VP8 and microphone as Opus (with the audio-level header
/// extension Janus uses for talking events), a self-view from the same camera branch.
@MainActor
final class Publisher {
    var onLocalFrame: (@MainActor (VideoFrame) -> Void)?
    /// Our microphone's level (dBFS, five times a second), muted or not.
    var onLocalAudioLevel: (@MainActor (Double) -> Void)?
    var onRoomEvent: (@MainActor (RoomEvent) -> Void)?
    var isSending: Bool { hasCamera || hasMicrophone }

    private let configuration: CallMediaConfiguration
    private let logger: Logger
    private let pipeline: MediaPipeline?
    private let webrtc: WebRTCBin?
    private let hasCamera: Bool
    private let hasMicrophone: Bool
    private var handle: JanusHandle?
    /// Janus's private id for our publisher; rooms require it from our subscribers (require_pvtid),
    /// so only someone admitted with a token can watch.
    private(set) var privateID: UInt64?

    init(configuration: CallMediaConfiguration, devices: CallMediaDevices, deviceSource: GStreamerDeviceSource, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        let camera = devices.camera.flatMap { device in deviceSource.source(for: device).map { (device, $0) } }
        let microphone = devices.microphone.flatMap { device in deviceSource.source(for: device).map { (device, $0) } }
        hasCamera = camera != nil
        hasMicrophone = microphone != nil
        guard camera != nil || microphone != nil else {
            // Nothing to send: we only watch and listen.
            pipeline = nil
            webrtc = nil
            return
        }
        var branches = ["webrtcbin name=webrtc bundle-policy=max-bundle"]
        var sources: [String: MediaPipeline.Source] = [:]
        if let (device, source) = camera {
            sources["camera-source"] = source
            let decode = device.isTest ? "" : "decodebin ! "
            branches.append("\(source.fragment(named: "camera-source")) ! \(decode)videoconvert ! videoscale ! videorate ! "
                + "video/x-raw,width=\(configuration.videoWidth),height=\(configuration.videoHeight),framerate=\(configuration.videoFramerate)/1,pixel-aspect-ratio=1/1 ! tee name=camera-tee "
                + "camera-tee. ! queue leaky=downstream max-size-buffers=1 ! videoconvert ! video/x-raw,format=BGRA ! "
                + "appsink name=self-view max-buffers=1 drop=true sync=false enable-last-sample=false "
                // A GOP of at most 2 s is the backstop for late joiners (ARCHITECTURE.md, keyframes).
                + "camera-tee. ! queue ! valve name=video-valve drop=false ! vp8enc deadline=1 cpu-used=8 keyframe-max-dist=\(configuration.videoFramerate * 2) "
                + "target-bitrate=\(configuration.videoBitrate) error-resilient=partitions ! rtpvp8pay name=video-pay pt=96 picture-id-mode=15-bit mtu=1200 ! "
                + "application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000 ! webrtc.")
        }
        if let (_, source) = microphone {
            sources["microphone-source"] = source
            branches.append("\(source.fragment(named: "microphone-source")) ! audioconvert ! audioresample ! "
                + "level audio-level-meta=true post-messages=true interval=200000000 ! valve name=audio-valve drop=false ! opusenc bitrate=48000 ! "
                + "rtpopuspay name=audio-pay pt=111 mtu=1200 ! application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000 ! webrtc.")
        }
        let pipeline = try MediaPipeline(description: branches.joined(separator: " "), sources: sources)
        guard let webrtc = pipeline.webRTCBin(named: "webrtc") else { throw MediaPipelineError("no webrtcbin") }
        // The audio-level header extension lets Janus send talking events (audiolevel_event).
        if microphone != nil, !pipeline.addAudioLevelExtension(toPayloader: "audio-pay", id: 1) {
            logger.warning("the audio-level RTP header extension is not available; nobody will be shown speaking")
        }
        self.pipeline = pipeline
        self.webrtc = webrtc
        if let address = configuration.iceAddress { webrtc.restrictICE(to: address) }
        // Transceivers exist once the payloaders are linked: video first (when there is a camera).
        let count = (camera != nil ? 1 : 0) + (microphone != nil ? 1 : 0)
        for index in 0..<count {
            webrtc.setTransceiverProperty(index: index, "direction", "sendonly")
        }
        if camera != nil { webrtc.setTransceiverProperty(index: 0, "do-nack", "true") }
        pipeline.receiveVideoFrames(fromAppSink: "self-view") { [weak self] frame in self?.onLocalFrame?(frame) }
        pipeline.watchBus { [weak self] message in
            switch message {
            case .level(let reading):
                // Measured before the mute valve: it tells when someone talks while muted.
                self?.onLocalAudioLevel?(reading.loudestRMS)
            case .error(let text, let debug):
                self?.logger.warning("publisher pipeline error", metadata: ["error": "\(text)", "debug": "\(debug ?? "")"])
            default:
                break
            }
        }
    }

    /// Joins the room as a publisher, publishes, and returns the publishers already there.
    func start(on janus: JanusSession, settings: CallSettings) async throws -> [PublishedFeed] {
        let handle = try await janus.attach(plugin: "janus.plugin.videoroom")
        self.handle = handle
        handle.onEvent = { [weak self] event in
            RoomEvent.parse(event.data).forEach { self?.onRoomEvent?($0) }
        }
        let joined = try await handle.request([
            "request": .string("join"), "ptype": .string("publisher"), "room": .number(Double(configuration.room)),
            "token": .string(configuration.token), "display": .string(configuration.display),
        ])
        let existing = PublishedFeed.list(in: joined.data)
        privateID = joined.data["private_id"]?.idValue
        guard let pipeline, let webrtc else { return existing }

        webrtc.onICECandidate { [weak handle] index, candidate in handle?.trickle(mlineIndex: index, candidate: candidate) }
        try pipeline.play()
        // The offer must carry each stream's SSRC, which webrtcbin knows only once the payloader
        // has negotiated; without it Janus cannot tell the bundled streams apart and drops video.
        try await waitUntilPayloadersNegotiated(pipeline)
        setSending(audio: settings.audioOn)
        setSending(video: settings.videoOn)
        let offer = try await webrtc.createOffer()
        try await webrtc.setLocalDescription(.offer, sdp: offer)
        let configured = try await handle.request(["request": .string("publish")], jsep: JSEP(type: "offer", sdp: offer))
        guard let answer = configured.jsep else { throw JanusError(code: 0, reason: "the media server sent no answer") }
        try await webrtc.setRemoteDescription(.answer, sdp: answer.sdp)
        return existing
    }

    private func waitUntilPayloadersNegotiated(_ pipeline: MediaPipeline) async throws {
        let payloaders = (hasCamera ? ["video-pay"] : []) + (hasMicrophone ? ["audio-pay"] : [])
        let deadline = ContinuousClock.now + .seconds(5)
        while !payloaders.allSatisfy({ pipeline.hasNegotiated(element: $0) }) {
            guard ContinuousClock.now < deadline else { throw MediaPipelineError("the camera or microphone produced nothing to send") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Turns sending of audio and/or video on or off. Off sends nothing (the valve drops it).
    /// Video off also stops the camera itself, so its light goes off and nothing else is kept
    /// from it; video back on restarts it and starts with a keyframe so others see it at once.
    func setSending(audio: Bool? = nil, video: Bool? = nil) {
        guard let pipeline else { return }
        if let audio, hasMicrophone { pipeline.set("drop", audio ? "false" : "true", onElement: "audio-valve") }
        if let video, hasCamera {
            pipeline.set("drop", video ? "false" : "true", onElement: "video-valve")
            if !pipeline.setSourceRunning("camera-source", video) {
                logger.warning("the camera could not be restarted")
            }
            if video { pipeline.requestKeyframe(upstreamOf: "video-pay") }
        }
    }

    /// Whether the camera device is open (false while video is off, or without a camera).
    var isCameraOpen: Bool { hasCamera && pipeline.map { !$0.isElementStopped("camera-source") } ?? false }

    func stop() async {
        if let handle {
            _ = try? await handle.request(["request": .string("leave")], timeout: .seconds(2))
            await handle.detach()
        }
        handle = nil
        pipeline?.stop()
    }
}
