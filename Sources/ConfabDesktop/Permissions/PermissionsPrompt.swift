import ConfabCore
import FoundationEssentials
import ConfabMedia
import GLibBridge
import GtkBridge

/// Where the permissions banner comes from: the app installs the store once, windows ask the
/// factory for a banner. As in the seed's `makePermissionsPromptView`, the factory can be
/// replaced (another banner) or set to return nil (no banner at all).
@MainActor
enum PermissionsPrompt {
    /// Which window the banner goes in.
    enum Placement {
        /// The lobby measures the microphone, so its silence counts there.
        case lobby(LobbyViewModel)
        case call
    }

    /// Makes the banner for a window; replace it to customise, or return nil to disable it.
    /// `toasts` is the window's overlay for short messages (a failed launch of Settings).
    static var makeBanner: @MainActor (PermissionsPromptViewModel, Placement, ToastOverlay?) -> Widget? = { prompt, placement, toasts in
        switch placement {
        case .lobby(let lobby):
            prompt.store.followMicrophoneSilence { [weak lobby] in lobby?.showsMicrophoneWarning ?? false }
        case .call:
            prompt.store.stopFollowingMicrophoneSilence()
        }
        // The portal asks only when the camera is about to be used: in the lobby.
        let isLobby = if case .lobby = placement { true } else { false }
        let banner = PermissionsBanner(prompt: prompt, toasts: toasts, requestsCameraAccess: isLobby)
        keepAlive(banner)
        return banner.view
    }

    private(set) static var prompt: PermissionsPromptViewModel?

    /// Creates the PermissionStore over the real sources and starts it. Call once at activation.
    static func install(callViewModel: CallViewModel, useTestDevices: Bool) {
        guard prompt == nil else { return }
        let store = PermissionStore(sources: [
            PrivacySettingsPermissionSource(),
            CameraPortalPermissionSource(),
            DevicePresencePermissionSource(devices: GStreamerDeviceSource(includeTestDevices: useTestDevices)),
        ])
        store.onStateChange = { device, state in
            print("confab: permission \(device.rawValue): \(state.name)")
            StandardOutput.flush() // tests read the log while the app runs
        }
        store.start()
        prompt = PermissionsPromptViewModel(store: store, callViewModel: callViewModel,
                                            preferences: JSONFilePermissionsPromptPreferences())
        // The banner says it; this makes it so: a refused device is closed and sends nothing.
        accessBinding = ObservationBinding { [weak store, weak callViewModel] in
            guard let store, let callViewModel else { return }
            callViewModel.localMedia.updateDeviceAccess(DeviceAccess(camera: DeviceAccess.allows(store.cameraState),
                                                          microphone: DeviceAccess.allows(store.microphoneState)))
        }
    }

    /// Keeps the call view model's device access in step with the store, for the app's life.
    private static var accessBinding: ObservationBinding?

    /// The banner for a window, or nil when the factory is disabled or nothing was installed.
    static func banner(in placement: Placement, toasts: ToastOverlay?) -> Widget? {
        guard let prompt else { return nil }
        return makeBanner(prompt, placement, toasts)
    }

    // The window holds only the widget; its banner object lives until the widget leaves its window.
    private static var liveBanners: [ObjectIdentifier: PermissionsBanner] = [:]

    private static func keepAlive(_ banner: PermissionsBanner) {
        let id = ObjectIdentifier(banner)
        liveBanners[id] = banner
        banner.view.onPropertyChange("root") { [weak view = banner.view] in
            guard view?.isInWindow != true else { return }
            liveBanners[id]?.stop()
            liveBanners[id] = nil
        }
    }
}
