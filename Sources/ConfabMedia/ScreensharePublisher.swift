import ConfabClient
import ConfabCore
import ConfabProtocol
import FoundationEssentials
import GLibBridge
import JanusProtocol
import Logging

/// Our shared screen: a second publisher in the call's Janus room, with its own handle and
/// send-only connection, video only (VP8). Its display "user|session|screen" tells receivers it is
/// a screen, not a camera. Sized and paced for legible text: at most 1920x1080 (scaled keeping
/// the aspect ratio), 10 fps, a higher bitrate than the camera.
@MainActor
final class ScreensharePublisher {
    private let configuration: CallMediaConfiguration
    private let logger: Logger
    private let pipeline: MediaPipeline
    private let webrtc: WebRTCBin
    private var handle: JanusHandle?

    /// Runs once if the share ends by itself (the desktop stopped it, the capture failed), with a
    /// sentence for the user.
    var onEnded: (@MainActor (String) -> Void)?
    private let capture: ScreenCapture
    private var ended = false

    /// Builds the encoding pipeline around `capture`, which it owns from now on.
    init(capture: ScreenCapture, configuration: CallMediaConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        self.capture = capture
        let framerate = configuration.screenshareFramerate
        let description = "webrtcbin name=webrtc bundle-policy=max-bundle "
            + "\(capture.description) ! videoconvert ! videoscale ! "
            + "video/x-raw,width=[16,\(configuration.screenshareMaxWidth)],height=[16,\(configuration.screenshareMaxHeight)],pixel-aspect-ratio=1/1 ! "
            + "videorate ! video/x-raw,framerate=\(framerate)/1 ! queue ! "
            // A GOP of at most 2 s is the backstop for late joiners (ARCHITECTURE.md, keyframes).
            + "vp8enc deadline=1 cpu-used=8 threads=2 keyframe-max-dist=\(framerate * 2) target-bitrate=\(configuration.screenshareBitrate) "
            + "error-resilient=partitions ! rtpvp8pay name=screen-pay pt=96 picture-id-mode=15-bit mtu=1200 ! "
            + "application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000 ! webrtc."
        let pipeline: MediaPipeline
        do {
            pipeline = try MediaPipeline(description: description)
        } catch {
            capture.close()
            throw error
        }
        guard let webrtc = pipeline.webRTCBin(named: "webrtc") else {
            capture.close()
            throw MediaPipelineError("no webrtcbin")
        }
        self.pipeline = pipeline
        self.webrtc = webrtc
        for address in configuration.iceAddresses { webrtc.restrictICE(to: address) }
        webrtc.setTransceiverProperty(index: 0, "direction", "sendonly")
        webrtc.setTransceiverProperty(index: 0, "do-nack", "true")
        pipeline.watchBus { [weak self] message in
            switch message {
            case .error(let text, let debug, _, _):
                self?.logger.warning("screen sharing pipeline error", metadata: ["error": "\(text)", "debug": "\(debug ?? "")"])
                self?.end("Screen sharing stopped: the screen could not be captured any more (\(text)).")
            case .endOfStream:
                self?.end("Screen sharing stopped: the shared screen or window is gone.")
            default:
                break
            }
        }
        capture.onEndedByDesktop = { [weak self] in self?.end("Screen sharing was stopped from the desktop.") }
    }

    private func end(_ reason: String) {
        guard !ended else { return }
        ended = true
        onEnded?(reason)
    }

    /// Joins the room as a second publisher and publishes the screen.
    func start(on janus: JanusSession) async throws {
        let handle = try await janus.attachVideoRoom()
        self.handle = handle
        // The camera publisher's handle follows the room; this one ignores its events.
        _ = try await handle.request(.joinPublisher(room: configuration.room, token: configuration.joinToken,
                                                   display: configuration.screenshareDisplay))
        webrtc.onICECandidate { [weak handle] index, candidate in handle?.trickle(mlineIndex: index, candidate: candidate) }
        try pipeline.play()
        // The offer must carry the stream's SSRC (see Publisher): wait for the payloader.
        let deadline = ContinuousClock.now + .seconds(5)
        while !pipeline.hasNegotiated(element: "screen-pay") {
            guard ContinuousClock.now < deadline, !ended else { throw CallError("The screen could not be captured.") }
            try await Task.sleep(for: .milliseconds(10))
        }
        let offer = try await webrtc.offer { $0 }
        let configured = try await handle.request(.publish, jsep: .offer(offer))
        guard let answer = configured.jsep, answer.type == .answer else { throw JanusError.unexpectedReply("no SDP answer to our offer") }
        try await webrtc.setRemoteDescription(.answer, sdp: answer.sdp)
    }

    /// Leaves the room (others see the screen feed go) and releases the capture.
    func stop() async {
        if let handle {
            _ = try? await handle.request(.leave, timeout: .seconds(2))
            await handle.detach()
        }
        handle = nil
        ended = true
        pipeline.stop()
        capture.close()
    }
}
