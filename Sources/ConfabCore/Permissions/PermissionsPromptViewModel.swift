import Observation

/// What the permissions banner shows: whether it is up, its title, why, and its actions.
///
/// Shown only while the call needs a device Confab may not use: before joining (lobby,
/// joining) both are assumed needed; in the call, `ownCapabilities` decide (sendVideo,
/// sendAudio), as in the seed. A missing device ("unavailable") is not a permission problem and
/// never shows the banner. Dismissing hides it for the rest of the call; whether it comes back
/// next call is `preferences.showsAgainNextCall`.
@Observable
@MainActor
public final class PermissionsPromptViewModel {
    @ObservationIgnored public let store: PermissionStore
    @ObservationIgnored private let callViewModel: CallViewModel
    @ObservationIgnored private let preferences: PermissionsPromptPreferences?
    /// The call the banner was dismissed in (outside a call there is nothing to dismiss it for).
    private var dismissedCall: CallID?
    /// Bumped when a dismissal for good is recorded, so observers re-read it.
    private var preferencesVersion = 0

    public init(store: PermissionStore, callViewModel: CallViewModel, preferences: PermissionsPromptPreferences? = nil) {
        self.store = store
        self.callViewModel = callViewModel
        self.preferences = preferences
        forgetDismissalWhenTheCallEnds()
    }

    public var requiresCamera: Bool { requires(.sendVideo) }
    public var requiresMicrophone: Bool { requires(.sendAudio) }

    public var isMissingCameraPermission: Bool { requiresCamera && store.cameraState.isDenied }
    public var isMissingMicrophonePermission: Bool { requiresMicrophone && store.microphoneState.isDenied }

    public var isShown: Bool {
        guard isMissingCameraPermission || isMissingMicrophonePermission else { return false }
        _ = preferencesVersion
        if preferences?.isDismissedForGood == true { return false }
        return dismissedCall == nil || dismissedCall != currentCall
    }

    /// The seed's three titles.
    public var title: String {
        switch (isMissingCameraPermission, isMissingMicrophonePermission) {
        case (true, true): tr("Camera and microphone access required")
        case (true, false): tr("Camera access required")
        case (false, true): tr("Microphone access required")
        case (false, false): ""
        }
    }

    /// Why it matters, and what stands in the way.
    public var message: String {
        var sentences: [String] = []
        switch (isMissingCameraPermission, isMissingMicrophonePermission) {
        case (true, true): sentences.append(tr("Others in the call can't see or hear you."))
        case (true, false): sentences.append(tr("Others in the call can't see you."))
        case (false, true): sentences.append(tr("Others in the call can't hear you."))
        case (false, false): return ""
        }
        let camera = isMissingCameraPermission ? store.cameraState : nil
        let microphone = isMissingMicrophonePermission ? store.microphoneState : nil
        if camera == .denied(.privacySetting), microphone == .denied(.privacySetting) {
            sentences.append(tr("Camera and microphone access are turned off in the system's privacy settings."))
        } else {
            if case .denied(let denial) = camera { sentences.append(Self.explain(denial, device: .camera)) }
            if case .denied(let denial) = microphone { sentences.append(Self.explain(denial, device: .microphone)) }
        }
        return sentences.joined(separator: " ")
    }

    /// The devices to open Settings for, in the order the banner names them.
    public var missingDevices: [PermissionDevice] {
        (isMissingCameraPermission ? [.camera] : []) + (isMissingMicrophonePermission ? [.microphone] : [])
    }

    /// Hides the banner for the rest of this call (and for good, if the user prefers).
    public func dismiss() {
        dismissedCall = currentCall
        if let preferences, !preferences.showsAgainNextCall {
            preferences.isDismissedForGood = true
            preferencesVersion += 1
        }
    }

    /// The call a dismissal belongs to: the lobby, joining and the call itself are one call.
    private var currentCall: CallID? {
        switch callViewModel.callingState {
        case .lobby(let info): info.call
        case .joining, .inCall, .reconnecting: callViewModel.activeCall?.id
        case .idle, .incoming, .outgoing: nil
        }
    }

    /// A dismissal lasts for one call: leaving it (home, ringing, another lobby) ends it, so the
    /// next call of the same id shows the banner again.
    private func forgetDismissalWhenTheCallEnds() {
        let current = withObservationTracking { currentCall } onChange: { [weak self] in
            Task { @MainActor in self?.forgetDismissalWhenTheCallEnds() }
        }
        if dismissedCall != nil, dismissedCall != current { dismissedCall = nil }
    }

    private func requires(_ capability: OwnCapability) -> Bool {
        switch callViewModel.callingState {
        case .lobby, .joining: true
        case .inCall, .reconnecting: callViewModel.activeCall?.can(capability) == true
        case .idle, .incoming, .outgoing: false
        }
    }

    static func explain(_ denial: PermissionDenial, device: PermissionDevice) -> String {
        let isCamera = device == .camera
        switch denial {
        case .privacySetting:
            return isCamera ? tr("Camera access is turned off in the system's privacy settings.")
                : tr("Microphone access is turned off in the system's privacy settings.")
        case .portal:
            return isCamera ? tr("Camera access for Confab was refused; allow it in Settings.")
                : tr("Microphone access for Confab was refused; allow it in Settings.")
        case .deviceNotReadable(let path):
            return tr("Your account may not open %@: add it to the video group (sudo usermod -aG video $USER), then log in again.", path)
        case .likelySystemMute:
            return tr("The microphone sends only silence: it is probably muted in the system's sound settings.")
        }
    }
}
