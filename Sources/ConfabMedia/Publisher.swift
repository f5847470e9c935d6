import ConfabClient
import ConfabCore
import ConfabProtocol
import Foundation
import GLibBridge
import Logging

/// Our send-only connection: camera as VP8 and microphone as Opus (with the audio-level header
/// extension Janus uses for talking events), a self-view from the same camera branch.
///
/// The camera and the microphone are *inputs* attached to the running pipeline, so they can
/// change without touching the connection: another device is swapped in while others keep
/// receiving us (same stream, a short gap), and a camera turned off is taken out entirely —
/// the device is closed and its light goes off.
@MainActor
final class Publisher {
    var onLocalFrame: (@MainActor (VideoFrame) -> Void)?
    /// Our microphone's level (dBFS, five times a second), muted or not.
    var onLocalAudioLevel: (@MainActor (Double) -> Void)?
    var onRoomEvent: (@MainActor (RoomEvent) -> Void)?
    /// The camera or microphone stopped working (unplugged, taken by another program): the
    /// device that failed, and GStreamer's words for it. It has been taken out already.
    var onInputFailed: (@MainActor (MediaDevice, String) -> Void)?
    var isSending: Bool { hasCamera || hasMicrophone }

    private let configuration: CallMediaConfiguration
    private let logger: Logger
    private let deviceSource: GStreamerDeviceSource
    private let pipeline: MediaPipeline?
    private let webrtc: WebRTCBin?
    /// Whether the connection carries video / audio at all (decided by the devices at join).
    private let hasCamera: Bool
    private let hasMicrophone: Bool
    private var camera: MediaDevice?
    private var microphone: MediaDevice?
    private var isVideoOn = true
    private var handle: JanusHandle?
    /// Janus's private id for our publisher; rooms require it from our subscribers (require_pvtid),
    /// so only someone admitted with a token can watch.
    private(set) var privateID: UInt64?

    private static let cameraInput = "camera-input"
    private static let microphoneInput = "microphone-input"

    init(configuration: CallMediaConfiguration, devices: CallMediaDevices, deviceSource: GStreamerDeviceSource, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        self.deviceSource = deviceSource
        camera = devices.camera.flatMap { deviceSource.source(for: $0) != nil ? $0 : nil }
        microphone = devices.microphone.flatMap { deviceSource.source(for: $0) != nil ? $0 : nil }
        hasCamera = camera != nil
        hasMicrophone = microphone != nil
        guard hasCamera || hasMicrophone else {
            // Nothing to send: we only watch and listen.
            pipeline = nil
            webrtc = nil
            return
        }
        var branches = ["webrtcbin name=webrtc bundle-policy=max-bundle"]
        if hasCamera {
            branches.append("tee name=camera-tee "
                + "camera-tee. ! queue leaky=downstream max-size-buffers=1 ! videoconvert ! video/x-raw,format=BGRA ! "
                + "appsink name=self-view max-buffers=1 drop=true sync=false enable-last-sample=false "
                // A GOP of at most 2 s is the backstop for late joiners (ARCHITECTURE.md, keyframes).
                + "camera-tee. ! queue ! valve name=video-valve drop=false ! vp8enc deadline=1 cpu-used=8 keyframe-max-dist=\(configuration.videoFramerate * 2) "
                + "target-bitrate=\(configuration.videoBitrate) error-resilient=partitions ! rtpvp8pay name=video-pay pt=96 picture-id-mode=15-bit mtu=1200 ! "
                + "application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000 ! webrtc.")
        }
        if hasMicrophone {
            branches.append("level name=microphone-level audio-level-meta=true post-messages=true interval=200000000 ! valve name=audio-valve drop=false ! opusenc bitrate=48000 ! "
                + "rtpopuspay name=audio-pay pt=111 mtu=1200 ! application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000 ! webrtc.")
        }
        let pipeline = try MediaPipeline(description: branches.joined(separator: " "))
        guard let webrtc = pipeline.webRTCBin(named: "webrtc") else { throw MediaPipelineError("no webrtcbin") }
        self.pipeline = pipeline
        self.webrtc = webrtc
        if let microphone { try attachMicrophone(microphone, to: pipeline) }
        // The audio-level header extension lets Janus send talking events (audiolevel_event).
        if hasMicrophone, !pipeline.addAudioLevelExtension(toPayloader: "audio-pay", id: 1) {
            logger.warning("the audio-level RTP header extension is not available; nobody will be shown speaking")
        }
        if let address = configuration.iceAddress { webrtc.restrictICE(to: address) }
        // Transceivers exist once the payloaders are linked: video first (when there is a camera).
        let count = (hasCamera ? 1 : 0) + (hasMicrophone ? 1 : 0)
        for index in 0..<count { webrtc.setTransceiverProperty(index: index, "direction", "sendonly") }
        if hasCamera { webrtc.setTransceiverProperty(index: 0, "do-nack", "true") }
        pipeline.receiveVideoFrames(fromAppSink: "self-view") { [weak self] frame in self?.onLocalFrame?(frame) }
        pipeline.watchBus { [weak self] message in
            switch message {
            case .level(let reading):
                // Measured before the mute valve: it tells when someone talks while muted.
                self?.onLocalAudioLevel?(reading.loudestRMS)
            case .error(let text, let debug, let source):
                self?.logger.warning("publisher pipeline error", metadata: ["error": "\(text)", "debug": "\(debug ?? "")"])
                self?.inputFailed(at: source, text)
            default:
                break
            }
        }
    }

    /// The camera's frames, scaled and paced for sending: every camera gives the same format,
    /// so one can replace another while the encoder runs.
    private func cameraInputDescription(_ source: String) -> String {
        // (Caps at the end of a description need an explicit capsfilter.)
        "\(source) ! videoconvert ! videoscale ! videorate ! capsfilter caps=\"video/x-raw,format=I420,width=\(configuration.videoWidth),"
            + "height=\(configuration.videoHeight),framerate=\(configuration.videoFramerate)/1,pixel-aspect-ratio=1/1\""
    }

    private func attachCamera(_ device: MediaDevice, to pipeline: MediaPipeline) throws {
        guard let source = deviceSource.source(for: device) else { throw MediaPipelineError("\(device.name) is gone") }
        let decode = device.isTest ? "" : " ! decodebin"
        try pipeline.attachInput(named: Self.cameraInput, description: cameraInputDescription(source.fragment(named: "camera-source") + decode),
                                 sources: ["camera-source": source], to: "camera-tee")
    }

    /// Mono at 48 kHz whatever the microphone gives, so one can replace another while Opus runs.
    private func attachMicrophone(_ device: MediaDevice, to pipeline: MediaPipeline) throws {
        guard let source = deviceSource.source(for: device) else { throw MediaPipelineError("\(device.name) is gone") }
        try pipeline.attachInput(named: Self.microphoneInput,
                                 description: "\(source.fragment(named: "microphone-source")) ! audioconvert ! audioresample ! "
                                     + "capsfilter caps=\"audio/x-raw,rate=48000,channels=1\"",
                                 sources: ["microphone-source": source], to: "microphone-level")
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
        // The offer must carry each stream's SSRC, which webrtcbin knows only once the payloader
        // has negotiated; without it Janus cannot tell the bundled streams apart and drops video.
        // Joining with the camera off, black frames stand in for that (nothing is sent yet), so
        // the camera is never opened.
        if let camera {
            if settings.videoOn {
                try attachCamera(camera, to: pipeline)
            } else {
                try pipeline.attachInput(named: Self.cameraInput, description: cameraInputDescription("videotestsrc is-live=true pattern=black"),
                                         to: "camera-tee")
            }
        }
        try pipeline.play()
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
    /// Video off also takes the camera out, so its light goes off; video back on opens it again
    /// and starts with a keyframe so others see it at once.
    func setSending(audio: Bool? = nil, video: Bool? = nil) {
        guard let pipeline else { return }
        if let audio, hasMicrophone {
            pipeline.set("drop", audio ? "false" : "true", onElement: "audio-valve")
            // A microphone taken out after it failed is tried again.
            if audio, !pipeline.hasElement(named: Self.microphoneInput), let microphone {
                attachOrLog(microphone, kind: "microphone") { try self.attachMicrophone(microphone, to: pipeline) }
            }
        }
        if let video, hasCamera {
            isVideoOn = video
            pipeline.set("drop", video ? "false" : "true", onElement: "video-valve")
            if video {
                if !isCameraOpen, let camera { attachOrLog(camera, kind: "camera") { try self.attachCamera(camera, to: pipeline) } }
                pipeline.requestKeyframe(upstreamOf: "video-pay")
            } else {
                pipeline.detachInput(named: Self.cameraInput)
            }
        }
    }

    /// Switches to other devices while sending: others keep receiving the same streams, now
    /// from the new camera or microphone. A kind the connection does not carry (no camera at
    /// join) cannot be added this way.
    func use(camera newCamera: MediaDevice?, microphone newMicrophone: MediaDevice?) {
        guard let pipeline else { return }
        // The same device again is tried anew when its input failed and was taken out.
        if hasCamera, let newCamera, newCamera != camera || (isVideoOn && !pipeline.hasElement(named: Self.cameraInput)) {
            camera = newCamera
            if isVideoOn {
                attachOrLog(newCamera, kind: "camera") { try self.attachCamera(newCamera, to: pipeline) }
                pipeline.requestKeyframe(upstreamOf: "video-pay")
            }
        }
        if hasMicrophone, let newMicrophone, newMicrophone != microphone || !pipeline.hasElement(named: Self.microphoneInput) {
            microphone = newMicrophone
            attachOrLog(newMicrophone, kind: "microphone") { try self.attachMicrophone(newMicrophone, to: pipeline) }
        }
    }

    private func attachOrLog(_ device: MediaDevice, kind: String, _ attach: () throws -> Void) {
        do {
            try attach()
        } catch {
            logger.warning("could not open the \(kind)", metadata: ["device": "\(device.name)", "error": "\(error)"])
        }
    }

    /// An error from inside the camera or microphone input: take that input out (the rest of
    /// the call goes on) and report which device failed.
    private func inputFailed(at source: String?, _ text: String) {
        guard let pipeline, let source else { return }
        // The path names each parent as "Type:name": "/GstPipeline:pipeline1/GstBin:camera-input/…".
        let parents = source.split(separator: "/").map { $0.split(separator: ":").last.map(String.init) ?? "" }
        let failed: MediaDevice?
        if parents.contains(Self.cameraInput) {
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

    /// Whether the camera device is open (false while video is off, or without a camera).
    var isCameraOpen: Bool { pipeline?.hasElement(named: "camera-source") ?? false }

    func stop() async {
        if let handle {
            _ = try? await handle.request(["request": .string("leave")], timeout: .seconds(2))
            await handle.detach()
        }
        handle = nil
        pipeline?.stop()
    }
}
