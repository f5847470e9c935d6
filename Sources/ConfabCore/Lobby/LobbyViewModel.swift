import Observation

/// The lobby's own state: devices to choose from, the camera and microphone checks, the
/// connection quality and who is already in the call. Media runs only while `start()`ed.
@Observable
@MainActor
public final class LobbyViewModel {
    /// Whether the camera preview is running, and if not, why.
    public enum CameraState: Equatable, Sendable {
        case off, running, noCamera
        case failed(String)
    }

    /// Whether the microphone meter is running, and if not, why.
    public enum MicrophoneState: Equatable, Sendable {
        case off, running, noMicrophone
        case failed(String)
    }

    public let info: LobbyInfo
    public private(set) var cameras: [MediaDevice] = []
    public private(set) var microphones: [MediaDevice] = []
    public private(set) var speakers: [MediaDevice] = []
    public private(set) var selectedCamera: MediaDevice?
    public private(set) var selectedMicrophone: MediaDevice?
    public private(set) var selectedSpeaker: MediaDevice?
    public private(set) var cameraState: CameraState = .off
    public private(set) var microphoneState: MicrophoneState = .off
    public private(set) var connectionQuality: ConnectionQuality = .unknown
    /// The last check found no call server at all (not a slow network: nothing answered).
    public private(set) var isServerUnreachable = false
    public let microphoneChecker: MicrophoneChecker
    public private(set) var isStarted = false

    /// Seconds between connection-quality measurements.
    public var latencyCheckInterval: Duration = .seconds(3)

    @ObservationIgnored private let callViewModel: CallViewModel
    @ObservationIgnored private let deviceSource: DeviceSource
    @ObservationIgnored private let microphoneLevels: MicrophoneLevelSource
    @ObservationIgnored private let cameraPreview: CameraPreviewSource
    @ObservationIgnored private let latencyProbe: LatencyProbe?
    @ObservationIgnored private let preferences: DevicePreferences
    @ObservationIgnored private var latencyTask: Task<Void, Never>?
    @ObservationIgnored private var runningCamera: MediaDevice?
    @ObservationIgnored private var runningMicrophone: MediaDevice?

    public init(info: LobbyInfo, callViewModel: CallViewModel, deviceSource: DeviceSource,
                microphoneLevels: MicrophoneLevelSource, cameraPreview: CameraPreviewSource,
                latencyProbe: LatencyProbe?, preferences: DevicePreferences,
                microphoneChecker: MicrophoneChecker = MicrophoneChecker()) {
        self.info = info
        self.callViewModel = callViewModel
        self.deviceSource = deviceSource
        self.microphoneLevels = microphoneLevels
        self.cameraPreview = cameraPreview
        self.latencyProbe = latencyProbe
        self.preferences = preferences
        self.microphoneChecker = microphoneChecker
    }

    /// The people already in the call (not counting the current user).
    public var participants: [Member] {
        current.participants.filter { $0.user.id != callViewModel.currentUser.id }
    }

    /// The secret of the call's link, once the coordinator has shown it to us (those who may
    /// read the call): the lobby then offers Copy link.
    public var linkSecret: String? { current.linkSecret }

    /// The lobby as it is now: the call view model keeps its list current as people join and
    /// leave, and adds the link secret when the call is read. Once joined, as it was last seen:
    /// the lobby stays on screen a moment while the call's media starts (the join's `info` said
    /// "Nobody else is here yet" with someone in, and took the Copy link button away).
    private var current: LobbyInfo {
        if case .lobby(let latest) = callViewModel.callingState, latest.call == info.call {
            lastSeen = latest
            return latest
        }
        return lastSeen ?? info
    }
    @ObservationIgnored private var lastSeen: LobbyInfo?

    /// True when the warning "Your mic doesn't seem to be working." should show.
    public var showsMicrophoneWarning: Bool {
        callViewModel.callSettings.audioOn && microphoneState == .running && !microphoneChecker.hasDecibelValues
    }

    /// True when "Please check your internet connection." should show.
    public var showsConnectionWarning: Bool { connectionQuality.needsAttention }

    // MARK: Life cycle

    /// Starts device monitoring, the camera and mic checks (as the settings allow) and latency checks.
    public func start() {
        guard !isStarted else { return }
        isStarted = true
        deviceSource.startMonitoring { [weak self] devices in self?.devicesChanged(devices) }
        observeCallSettings()
        startLatencyChecks()
    }

    /// Stops everything the lobby opened: devices are free again when this returns.
    public func stop() {
        guard isStarted else { return }
        isStarted = false
        latencyTask?.cancel()
        latencyTask = nil
        deviceSource.stopMonitoring()
        stopCamera()
        stopMicrophone()
    }

    // MARK: User actions

    public func toggleMicrophone() { callViewModel.toggleMicrophoneEnabled() }
    public func toggleCamera() { callViewModel.toggleCameraEnabled() }

    public func selectDevice(_ device: MediaDevice) {
        preferences.setPreferredDeviceID(device.id, for: device.kind)
        switch device.kind {
        case .camera:
            selectedCamera = device
        case .microphone:
            selectedMicrophone = device
        case .speaker:
            selectedSpeaker = device
        }
        applyMediaState()
    }

    public func join() async {
        await callViewModel.joinCall(info.call)
    }

    public func close() {
        stop()
        callViewModel.closeLobby()
    }

    // MARK: Devices

    private func devicesChanged(_ devices: [MediaDevice]) {
        cameras = devices.filter { $0.kind == .camera }
        microphones = devices.filter { $0.kind == .microphone }
        speakers = devices.filter { $0.kind == .speaker }
        // A remembered device wins whenever it is plugged in; otherwise the system's default,
        // as it changes (DeviceChoice).
        selectedCamera = choose(from: cameras, current: selectedCamera, kind: .camera)
        selectedMicrophone = choose(from: microphones, current: selectedMicrophone, kind: .microphone)
        selectedSpeaker = choose(from: speakers, current: selectedSpeaker, kind: .speaker)
        applyMediaState()
    }

    private func choose(from devices: [MediaDevice], current: MediaDevice?, kind: MediaDevice.Kind) -> MediaDevice? {
        DeviceChoice.pick(from: devices, preferredID: preferences.preferredDeviceID(for: kind), current: current)
    }

    // MARK: Media follows the settings

    private func observeCallSettings() {
        guard isStarted else { return }
        withObservationTracking {
            _ = callViewModel.localMedia.effectiveSettings
        } onChange: {
            Task { @MainActor [weak self] in
                guard let self, self.isStarted else { return }
                self.applyMediaState()
                self.observeCallSettings()
            }
        }
    }

    /// Makes the running pipelines match the settings and selections: one pipeline per device.
    private func applyMediaState() {
        guard isStarted else { return }
        // What the desktop refuses stays closed, whatever the toggles say.
        let settings = callViewModel.localMedia.effectiveSettings

        if settings.videoOn, let camera = selectedCamera {
            if !camera.isSameDevice(as: runningCamera) || !isCameraHealthy {
                stopCamera()
                runningCamera = camera
                cameraState = .running
                cameraPreview.startPreview(camera) { [weak self] reason in self?.cameraFailed(camera, reason) }
            }
        } else {
            stopCamera()
            cameraState = selectedCamera == nil ? .noCamera : .off
        }

        if settings.audioOn, let microphone = selectedMicrophone {
            if !microphone.isSameDevice(as: runningMicrophone) || !isMicrophoneHealthy {
                stopMicrophone()
                runningMicrophone = microphone
                microphoneState = .running
                microphoneLevels.startMetering(microphone, onLevel: { [weak self] level in
                    self?.microphoneChecker.record(decibels: level)
                }, onFailure: { [weak self] reason in self?.microphoneFailed(microphone, reason) })
            }
        } else {
            stopMicrophone()
            microphoneState = selectedMicrophone == nil ? .noMicrophone : .off
        }
    }

    private var isCameraHealthy: Bool { cameraState == .running }
    private var isMicrophoneHealthy: Bool { microphoneState == .running }

    private func stopCamera() {
        guard runningCamera != nil else { return }
        cameraPreview.stopPreview()
        runningCamera = nil
    }

    private func stopMicrophone() {
        guard runningMicrophone != nil else { return }
        microphoneLevels.stopMetering()
        runningMicrophone = nil
        microphoneChecker.reset()
    }

    private func cameraFailed(_ camera: MediaDevice, _ reason: String) {
        guard runningCamera == camera else { return }
        cameraPreview.stopPreview()
        runningCamera = nil
        cameraState = .failed(reason)
    }

    private func microphoneFailed(_ microphone: MediaDevice, _ reason: String) {
        guard runningMicrophone == microphone else { return }
        microphoneLevels.stopMetering()
        runningMicrophone = nil
        microphoneChecker.reset()
        microphoneState = .failed(reason)
    }

    // MARK: Connection quality

    private func startLatencyChecks() {
        guard let latencyProbe else { return }
        latencyTask = Task { [weak self] in
            while !Task.isCancelled {
                let roundTrip = await latencyProbe.measureRoundTrip()
                guard !Task.isCancelled, let self else { return }
                self.connectionQuality = ConnectionQuality(roundTripTime: roundTrip)
                self.isServerUnreachable = roundTrip == nil
                try? await Task.sleep(for: self.latencyCheckInterval)
            }
        }
    }
}
