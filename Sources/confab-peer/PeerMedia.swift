import ConfabClient
import ConfabCore
import ConfabMedia
import FoundationEssentials
import GLibBridge

/// The media half of a peer that sends media: the same call view model and GStreamer media
/// engine the app uses, fed by a solid-colour test camera and a tone, with a speaker that
/// discards sound. The peer's commands still ring and answer through the client; joining and
/// leaving go through the view model, which starts and stops the media as it does in the app.
@MainActor
final class PeerMedia {
    let service: PeerCallService
    private let viewModel: CallViewModel
    private let engine: GStreamerCallMediaEngine
    private let settings: PeerMediaSettings
    private let devicesInUse: DevicesInUse
    private let nextDevices: CallMediaDevices
    private var recorder: RemoteMediaRecorder?
    private var ear: PeerEar?
    private var deviceSchedule: Task<Void, Never>?
    private var screenSchedule: Task<Void, Never>?
    private var watcher: RepeatingTimer?
    private var lastToastID: Int?
    private(set) var report: MediaReport

    init(client: CoordinatorClient, settings: PeerMediaSettings) {
        GStreamer.initialize()
        CallMediaWarmUp.start(joiningAtOnce: true)
        self.settings = settings
        let devices = PeerTestDevices(settings: settings)
        // The devices `--switch-devices-after` switches to.
        nextDevices = devices.next
        let chosen = DevicesInUse(devices.joining(withoutDevices: settings.joinWithoutDevices))
        devicesInUse = chosen
        engine = GStreamerCallMediaEngine(deviceSource: devices.source, userID: client.currentUserID, iceAddress: settings.mediaAddress) { _ in
            chosen.devices
        }
        engine.mediaServerTrust = client.serverTrust
        service = PeerCallService(client: client)
        viewModel = CallViewModel(currentUser: User(id: client.currentUserID), callService: service, mediaEngine: engine)
        engine.configure(for: settings)
        engine.onDeviceFailed = { [weak viewModel] failure in viewModel?.localMedia.deviceFailed(failure) }
        let hex = settings.color.red.hexText(digits: 2) + settings.color.green.hexText(digits: 2) + settings.color.blue.hexText(digits: 2)
        report = MediaReport(sent: .init(color: hex, tone: settings.tone, volume: settings.volume, mediaAddress: settings.mediaAddress))
        report.audioProcessing = AudioProcessingReport(echoCancellation: settings.audioProcessing.echoCancellation,
                                                       noiseSuppression: settings.audioProcessing.noiseSuppression,
                                                       gainControl: settings.audioProcessing.automaticGainControl,
                                                       simulatedRoom: settings.simulatedRoom)
    }

    /// Joins through the view model (which then starts the media), as the app's lobby does.
    func join(_ call: CallID, create: Bool) async throws {
        service.forwardsEvents = true
        service.joinCreatesCall = create
        let requestedAt = Date()
        report.joinRequestedAt = requestedAt
        let recorder = RemoteMediaRecorder(joinRequestedAt: requestedAt, progressEvery: settings.progressEvery)
        self.recorder = recorder
        recorder.start(engine: engine, viewModel: viewModel)
        if !settings.listen.isEmpty {
            do {
                ear = try PeerEar(frequencies: settings.listen)
            } catch {
                PeerSession.say("cannot listen to the test speaker: \(error)")
            }
        }
        watcher = RepeatingTimer(interval: 0.1) { [weak self] in self?.watchViewModel() }
        // Before joining, the toggles only change the call settings (as in the app's lobby).
        if settings.joinCameraOff { viewModel.toggleCameraEnabled() }
        if settings.joinMuted { viewModel.toggleMicrophoneEnabled() }
        await viewModel.joinCall(call)
        guard viewModel.callingState == .inCall else {
            throw service.lastJoinError ?? PeerError(viewModel.toast?.message ?? "could not join \(call)")
        }
        report.inCallAt = Date()
        scheduleDevices()
        scheduleScreenshare()
    }

    /// Leaves Janus first, waiting for it, so the others see our feed go before the process
    /// ends; then hangs up through the view model as the app's hang-up button does.
    func leave() async {
        finishRecording()
        await engine.stop()
        await viewModel.hangUp()
    }

    /// Stops recording and releases the media, however the call ended.
    func shutdown() async {
        finishRecording()
        await engine.stop()
    }

    private func finishRecording() {
        deviceSchedule?.cancel()
        deviceSchedule = nil
        screenSchedule?.cancel()
        screenSchedule = nil
        watchViewModel()
        watcher?.cancel()
        watcher = nil
        if let ear {
            report.heard = ear.stop()
            self.ear = nil
        }
        guard let recorder else { return }
        recorder.stop(engine: engine, viewModel: viewModel)
        report.remote = recorder.report
        report.sentVideo = recorder.sentVideo
        report.remoteScreens = recorder.screenReport
        report.screensharingChanges = recorder.screensharingChanges
    }

    /// `--mute-after` / `--unmute-after` and `--camera-off-after` / `--camera-on-after`,
    /// counted from entering the call.
    private func scheduleDevices() {
        enum Step { case microphone(Bool), camera(Bool), speaker(Bool), switchDevices }
        let steps: [(Duration, Step)] = [
            settings.muteAfter.map { ($0, .microphone(false)) }, settings.unmuteAfter.map { ($0, .microphone(true)) },
            settings.cameraOffAfter.map { ($0, .camera(false)) }, settings.cameraOnAfter.map { ($0, .camera(true)) },
            settings.switchDevicesAfter.map { ($0, .switchDevices) },
            settings.speakerOffAfter.map { ($0, .speaker(false)) }, settings.speakerOnAfter.map { ($0, .speaker(true)) },
        ].compactMap { $0 }.sorted { $0.0 < $1.0 }
        guard !steps.isEmpty else { return }
        let start = ContinuousClock.now
        deviceSchedule = Task { [weak self] in
            for (after, step) in steps {
                try? await Task.sleep(until: start + after)
                guard !Task.isCancelled, let self else { return }
                switch step {
                case .microphone(let on): self.setMicrophone(on: on)
                case .camera(let on): await self.setCamera(on: on)
                case .switchDevices: self.switchDevices()
                case .speaker(let on): self.setSpeaker(on: on)
                }
            }
        }
    }

    /// As the app's Devices popover does: new choices, used without leaving the call.
    private func switchDevices() {
        guard viewModel.callingState == .inCall else { return }
        devicesInUse.devices = nextDevices
        engine.devicesChanged()
        report.devicesSwitchedAt = Date()
        PeerSession.say("switched to the second camera, microphone and speaker")
    }

    private func setCamera(on: Bool) async {
        guard viewModel.callingState == .inCall, viewModel.callSettings.videoOn != on else { return }
        viewModel.toggleCameraEnabled()
        let index = report.camera.count
        report.camera.append(.init(at: Date(), on: on))
        PeerSession.say("camera \(on ? "on" : "off")")
        try? await Task.sleep(for: .milliseconds(500))
        report.camera[index].deviceOpenAfter = engine.isCameraOpen
    }

    /// `--screen` from `--screen-after` (once media is connected) until `--stop-screen-after`,
    /// through the view model as the app's Share screen button does.
    private func scheduleScreenshare() {
        guard let source = settings.screen else { return }
        report.screenshare = MediaReport.Screenshare(source: source.rawValue)
        let start = ContinuousClock.now
        screenSchedule = Task { [weak self] in
            try? await Task.sleep(until: start + (self?.settings.screenAfter ?? .zero))
            while let self, !Task.isCancelled, self.viewModel.activeCall?.isMediaConnected != true {
                try? await Task.sleep(for: .milliseconds(50))
            }
            guard let self, !Task.isCancelled, self.viewModel.callingState == .inCall, let call = self.viewModel.activeCall else { return }
            await call.startScreensharing(source: source)
            guard call.isCurrentUserScreensharing else {
                self.report.screenshare?.error = self.viewModel.toast?.message ?? "could not share the screen"
                PeerSession.say("screen sharing failed: \(self.report.screenshare?.error ?? "")")
                return
            }
            self.report.screenshare?.startedAt = Date()
            PeerSession.say("sharing the screen (\(source.rawValue))")
            guard let stopAfter = self.settings.stopScreenAfter else { return }
            try? await Task.sleep(until: start + stopAfter)
            guard !Task.isCancelled, call.isCurrentUserScreensharing else { return }
            // When the user asked to stop: others may see the feed go before leaving returns.
            self.report.screenshare?.stoppedAt = Date()
            await call.stopScreensharing()
            PeerSession.say("stopped sharing the screen")
        }
    }

    /// As the call window's speaker button does.
    private func setSpeaker(on: Bool) {
        guard viewModel.callingState == .inCall, viewModel.callSettings.speakerOn != on else { return }
        viewModel.toggleSpeaker()
        report.speaker.append(.init(at: Date(), on: on))
        PeerSession.say("speaker \(on ? "on" : "off")")
    }

    private func setMicrophone(on: Bool) {
        guard viewModel.callingState == .inCall, viewModel.callSettings.audioOn != on else { return }
        viewModel.toggleMicrophoneEnabled()
        report.microphone.append(.init(at: Date(), on: on))
        PeerSession.say("microphone \(on ? "on" : "off")")
    }

    /// Notes when media came up and every message the view model showed.
    private func watchViewModel() {
        if report.connectedAt == nil, viewModel.activeCall?.isMediaConnected == true {
            report.connectedAt = Date()
            report.cameraOpenWhenConnected = engine.isCameraOpen
            PeerSession.say("media connected")
        }
        if let toast = viewModel.toast, toast.id != lastToastID {
            lastToastID = toast.id
            report.messages.append(toast.message)
            PeerSession.say("message: \(toast.message)")
        }
    }
}

/// The devices the engine reads when a call starts or the choices change.
@MainActor
private final class DevicesInUse {
    var devices: CallMediaDevices
    init(_ devices: CallMediaDevices) { self.devices = devices }
}

extension GStreamerCallMediaEngine {
    /// What a peer's engine is told before a call, in a coordinator call or a plain Janus room.
    func configure(for settings: PeerMediaSettings) {
        let processing = settings.audioProcessing
        audioProcessing = { processing }
        let largest = settings.maximumVideoSize
        maximumVideoSize = { largest }
        // Nobody looks at a peer's pictures: it counts frames and reads a colour, for which a
        // thumbnail does (converting each frame whole cost more than decoding it, bench-media
        // --perf). The report gives the decoded size.
        remoteVideoSizeWithoutView = VideoSize(width: 160, height: 90)
        declaredViewSize = settings.shownVideoSize
    }
}
