import FoundationEssentials
import Observation

/// Your own microphone, camera and speaker: what you chose (`callSettings`), what the desktop
/// allows (`deviceAccess`), push-to-talk and the "you are muted" hint. One owner for them from
/// the lobby through the call and into the next one, so the lobby's choices are the call's.
///
/// Changes reach the call in progress (`call`), which passes them to its media; in the lobby
/// they only edit the settings the call will start with.
@Observable
@MainActor
public final class LocalMedia {
    /// Mic/camera/speaker choices; in the lobby the toggles edit only this.
    public private(set) var callSettings: CallSettings
    /// What the desktop allows (privacy switches, the camera portal); see `DeviceAccess`.
    public private(set) var deviceAccess = DeviceAccess()
    /// While muted, holding the push-to-talk key opens the microphone until it is released.
    public private(set) var isPushToTalkActive = false
    /// The user is talking into a muted microphone (the call window says so).
    public private(set) var isSpeakingWhileMuted = false

    /// The call these devices feed, while there is one (set by `CallViewModel`).
    @ObservationIgnored weak var call: ActiveCall?
    /// The type of the call whose lobby is open (set by `CallViewModel`): before there is a
    /// call, its type says what may not be sent at all (no camera for an audio room's lobby).
    var lobbyCallType: CallType?
    @ObservationIgnored private var speakingWhileMutedDetector = SpeakingWhileMutedDetector()
    /// When the user was last told that a device went (failed, or pulled out), by its id: a
    /// device pulled out may also fail, a second later, and is told of once. A failure later
    /// on (the user tried the device again) is told again.
    @ObservationIgnored private var toldGone: [String: ContinuousClock.Instant] = [:]
    /// What `toldGone` is timed by (tests set it).
    @ObservationIgnored var clock: () -> ContinuousClock.Instant = { .now }
    /// Tells the user something about their devices (`CallViewModel` shows it as a toast).
    @ObservationIgnored var report: @MainActor (String) -> Void = { _ in }

    init(callSettings: CallSettings) {
        self.callSettings = callSettings
    }

    /// The settings as media must follow them: a toggle that is on does not open a device the
    /// desktop refuses, nor send what the call does not let us send (`ActiveCall.maySend`).
    public var effectiveSettings: CallSettings {
        CallSettings(audioOn: callSettings.audioOn && deviceAccess.microphone && maySend(.sendAudio),
                     videoOn: callSettings.videoOn && deviceAccess.camera && maySend(.sendVideo),
                     speakerOn: callSettings.speakerOn)
    }

    /// The call's word once there is a call; in a lobby, its type's.
    private func maySend(_ capability: OwnCapability) -> Bool {
        if let call { return call.maySend(capability) }
        return lobbyCallType?.allowsAnyone(capability) ?? true
    }

    /// Why the call does not let our microphone or camera go out (`ActiveCall.maySend`), in the
    /// user's words; nil when it does. The toggles show it, and are off and cannot be pressed.
    public var microphoneRefusal: String? {
        maySend(.sendAudio) ? nil : tr("Only those allowed to speak are heard in this call. Raise your hand to ask.")
    }
    public var cameraRefusal: String? { maySend(.sendVideo) ? nil : tr("Nobody’s camera is shown in this call.") }

    /// The user's toggle (the button, Ctrl+D). Where the call lets nobody hear us it says why
    /// and changes nothing (the button cannot be pressed then; the shortcut can).
    public func toggleMicrophone() {
        if let microphoneRefusal { return report(microphoneRefusal) }
        flipMicrophone()
    }

    public func toggleCamera() {
        if let cameraRefusal { return report(cameraRefusal) }
        flipCamera()
    }

    private func flipMicrophone() {
        callSettings = callSettings.withUpdatedAudioState(!callSettings.audioOn)
        call?.setAudioEnabled(effectiveSettings.audioOn)
    }

    private func flipCamera() {
        callSettings = callSettings.withUpdatedVideoState(!callSettings.videoOn)
        call?.setVideoEnabled(effectiveSettings.videoOn)
    }

    public func toggleSpeaker() {
        callSettings = callSettings.withUpdatedSpeakerState(!callSettings.speakerOn)
        call?.setSpeakerEnabled(callSettings.speakerOn)
    }

    /// Answering a ring without video starts the call with the camera off.
    func turnCameraOff() {
        if callSettings.videoOn { flipCamera() }
    }

    /// The desktop granted or refused the camera or microphone: a refused device closes at
    /// once (in the lobby and in a call), a granted one opens again if its toggle is on.
    public func updateDeviceAccess(_ access: DeviceAccess) {
        guard access != deviceAccess else { return }
        deviceAccess = access
        call?.setAudioEnabled(effectiveSettings.audioOn)
        call?.setVideoEnabled(effectiveSettings.videoOn)
    }

    // MARK: In a call

    /// A camera or microphone stopped working in the call. With another device taking over,
    /// the user is told which; without one, the camera or microphone shows as off (turning it
    /// on tries the device again) so nobody believes they are still seen or heard.
    public func deviceFailed(_ failure: MediaDeviceFailure) {
        guard call != nil else { return }
        let isCamera = failure.device.kind == .camera
        // A chosen device pulled out may also fail (a camera's element errors): told once.
        let toldAlready = !tellGone(failure.device)
        if let replacement = failure.replacement {
            if toldAlready { return }
            return report(isCamera
                ? tr("Your camera “%@” stopped working. Now using “%@”.", failure.device.name, replacement.name)
                : tr("Your microphone “%@” stopped working. Now using “%@”.", failure.device.name, replacement.name))
        }
        switch failure.device.kind {
        case .camera where callSettings.videoOn: flipCamera()
        case .microphone where callSettings.audioOn: flipMicrophone()
        default: break
        }
        if toldAlready { return }
        report(isCamera
            ? tr("Your camera “%@” stopped working. Choose another in Devices, or turn it on to try again.", failure.device.name)
            : tr("Your microphone “%@” stopped working. Choose another in Devices, or turn it on to try again.", failure.device.name))
    }

    /// The user's chosen device was pulled out or plugged back in during the call, and the
    /// call chose again (`DeviceChoice`): `nowUsing` is what its kind uses now. The user is
    /// told, since nothing else shows it: a sound server moves a stream without a word, and a
    /// headset's wearer hears the call move to the laptop's speakers.
    public func rememberedDeviceChanged(_ change: RememberedDeviceChange, nowUsing: MediaDevice?) {
        guard call != nil else { return }
        if change.isPluggedIn {
            toldGone[change.device.id] = nil
            // Not what the call took (not listed to it yet): nothing to tell.
            if change.device.isSameDevice(as: nowUsing) { report(Self.pluggedInAgain(change.device)) }
        } else if tellGone(change.device) {  // else its failure was told a moment ago
            report(Self.unplugged(change.device, nowUsing: nowUsing))
        }
    }

    /// Notes that the user is told now that `device` went; false if they were a moment ago.
    private func tellGone(_ device: MediaDevice) -> Bool {
        let now = clock()
        defer { toldGone[device.id] = now }
        guard let told = toldGone[device.id] else { return true }
        return now - told > .seconds(5)
    }

    private static func pluggedInAgain(_ device: MediaDevice) -> String {
        switch device.kind {
        case .camera: tr("Your camera “%@” is plugged in again and in use.", device.name)
        case .microphone: tr("Your microphone “%@” is plugged in again and in use.", device.name)
        case .speaker: tr("Your speaker “%@” is plugged in again and in use.", device.name)
        }
    }

    private static func unplugged(_ device: MediaDevice, nowUsing: MediaDevice?) -> String {
        let name = device.name
        return switch (device.kind, nowUsing?.name) {
        case (.camera, nil): tr("Your camera “%@” was unplugged. Choose another in Devices.", name)
        case (.microphone, nil): tr("Your microphone “%@” was unplugged. Choose another in Devices.", name)
        case (.speaker, nil): tr("Your speaker “%@” was unplugged. Choose another in Devices.", name)
        case (.camera, let replacement?): tr("Your camera “%@” was unplugged. Now using “%@”.", name, replacement)
        case (.microphone, let replacement?): tr("Your microphone “%@” was unplugged. Now using “%@”.", name, replacement)
        case (.speaker, let replacement?): tr("Your speaker “%@” was unplugged. Now playing on “%@”.", name, replacement)
        }
    }

    /// One reading of our own microphone during a call (measured before muting). What is sent
    /// counts, not the toggle: a listener in a room where only some may speak is not heard
    /// with her toggle on either.
    public func recordLocalAudioLevel(_ decibels: Double) {
        let speaking = speakingWhileMutedDetector.record(decibels: decibels, microphoneOn: effectiveSettings.audioOn)
        if speaking != isSpeakingWhileMuted { isSpeakingWhileMuted = speaking }
    }

    /// What the call window says while the user talks and nobody hears: how to unmute, or,
    /// where the call does not let her speak, why (telling her to unmute would be refused).
    public var speakingWhileMutedHint: String? {
        guard isSpeakingWhileMuted else { return nil }
        return microphoneRefusal ?? tr("You are muted. Unmute to speak (Ctrl+D, or hold Space).")
    }

    public func startPushToTalk() {
        guard !callSettings.audioOn, !isPushToTalkActive, call != nil, microphoneRefusal == nil else { return }
        isPushToTalkActive = true
        flipMicrophone()
    }

    public func endPushToTalk() {
        guard isPushToTalkActive else { return }
        isPushToTalkActive = false
        if callSettings.audioOn { flipMicrophone() }
    }

    /// A moderator asked us to turn off some of our media: turn them off here (the coordinator
    /// only relays the request; each device mutes itself) and return what was turned off, in
    /// the user's words. Holding push-to-talk does not keep the microphone open against them.
    func turnOff(_ tracks: ModeratedTracks) -> [String] {
        var turnedOff: [String] = []
        if tracks.contains(.microphone), callSettings.audioOn {
            if isPushToTalkActive { endPushToTalk() } else { flipMicrophone() }
            turnedOff.append(tr("microphone"))
        }
        if tracks.contains(.camera), callSettings.videoOn {
            flipCamera()
            turnedOff.append(tr("camera"))
        }
        if tracks.contains(.screenshare), let call, call.isCurrentUserScreensharing {
            Task { await call.stopScreensharing() }
            turnedOff.append(tr("screen sharing"))
        }
        return turnedOff
    }

    /// The call is over: push-to-talk and the muted hint belong to it; the choices stay (a
    /// microphone open only while the key was held is muted again, not carried into the next call).
    func callEnded() {
        endPushToTalk()
        call = nil
        if isSpeakingWhileMuted { isSpeakingWhileMuted = false }
        speakingWhileMutedDetector = SpeakingWhileMutedDetector()
    }
}
