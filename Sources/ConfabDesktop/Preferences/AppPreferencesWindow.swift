import ConfabCore
import ConfabMedia
import GLibBridge
import GtkBridge

/// Preferences: the account to sign in with, devices with a live preview and microphone level,
/// whether the microphone and camera start on when joining, voice processing (echo
/// cancellation, noise suppression, automatic level), and the ring volume. Every change is
/// saved at once (GNOME's instant-apply); the account applies from the next start.
@MainActor
final class AppPreferencesWindow {
    private let window: PreferencesWindow
    private let preferences: AppPreferences
    private let callViewModel: CallViewModel
    /// The device check borrows the lobby's view model; only while no call or lobby holds the devices.
    private let devicesCheck: LobbyViewModel?
    private let preview: LobbyPreview
    private let deviceSelectors: DeviceSelectors
    private let cameraPreview: CameraPreview
    private var previewHasFrame = false
    private var bindings: [ObservationBinding] = []
    /// The Swift wrappers of the controls: their signal handlers hold them weakly.
    private var controls: [Widget] = []

    /// - Parameters:
    ///   - makeDevicesCheck: builds a lobby view model for the device page when the devices are free.
    ///   - onClosed: runs after the window has gone.
    init(application: Application, preferences: AppPreferences, callViewModel: CallViewModel,
         cameraPreview: CameraPreview, makeDevicesCheck: () -> LobbyViewModel?,
         onRingVolumeChanged: @escaping @MainActor (Double) -> Void, onClosed: @escaping @MainActor () -> Void) {
        self.preferences = preferences
        self.callViewModel = callViewModel
        self.cameraPreview = cameraPreview
        window = PreferencesWindow(application: application, title: tr("Preferences"), width: 640, height: 720)
        let devicesCheck = makeDevicesCheck()
        self.devicesCheck = devicesCheck
        preview = LobbyPreview(user: callViewModel.currentUser)
        preview.connectionQuality.view.isVisible = false
        deviceSelectors = DeviceSelectors { [weak devicesCheck, preferences] device in
            if let devicesCheck { devicesCheck.selectDevice(device) } else { preferences.setPreferredDeviceID(device.id, for: device.kind) }
        }

        window.add(PreferencesPage(title: tr("General"), iconName: "emblem-system-symbolic", groups: [
            accountGroup(), joiningGroup(), voiceGroup(), ringingGroup(onRingVolumeChanged),
        ]))
        window.add(PreferencesPage(title: tr("Devices"), iconName: "camera-web-symbolic", groups: devicesGroups()))

        cameraPreview.onFrame = { [weak self] frame in self?.show(frame) }
        window.onClose { [weak self] in
            self?.stop()
            onClosed()
        }
        bindings = [ObservationBinding { [weak self] in self?.updateDevices() }]
    }

    func present() {
        devicesCheck?.start()
        window.present()
    }

    func close() {
        stop()
        window.close()
    }

    private func stop() {
        bindings.forEach { $0.cancel() }
        bindings = []
        // onFrame is left alone: a lobby opening now has already set its own, and ours is weak.
        devicesCheck?.stop()
    }

    /// Whether this window is using the camera and microphone (a call or lobby must not start meanwhile).
    var isCheckingDevices: Bool { devicesCheck != nil }

    // MARK: Groups

    private func accountGroup() -> PreferencesGroup {
        let server = entry(placeholder: "ws://127.0.0.1:8630", text: preferences.serverURL) { [preferences] in
            preferences.serverURL = $0
        }
        let user = entry(placeholder: tr("Your login name"), text: preferences.userID) { [preferences] in
            preferences.userID = $0
        }
        let token = entry(placeholder: tr("Not needed with development sign-in"), text: preferences.token) { [preferences] in
            preferences.token = $0
        }
        token.hidesText = true
        controls += [server, user, token]
        let note = preferences.isStoredInGSettings
            ? tr("Used the next time Confab starts.")
            : tr("Not saved: the org.confab.Confab settings schema is not installed (install with meson, or start with `make run`).")
        let group = PreferencesGroup(title: tr("Account"), rows: [
            // The row's title labels its control for screen readers (AdwActionRow's activatable widget).
            ActionRow(title: tr("Server address"), control: server), ActionRow(title: tr("User id"), control: user),
            ActionRow(title: tr("Sign-in token"), control: token),
        ])
        group.setDescription(note)
        return group
    }

    private func joiningGroup() -> PreferencesGroup {
        let microphone = Switch(), camera = Switch()
        microphone.isOn = preferences.microphoneOnJoin
        camera.isOn = preferences.cameraOnJoin
        microphone.onChange { [preferences] in preferences.microphoneOnJoin = $0 }
        camera.onChange { [preferences] in preferences.cameraOnJoin = $0 }
        controls += [microphone, camera]
        return PreferencesGroup(title: tr("Joining Calls"), rows: [
            ActionRow(title: tr("Microphone on when joining"), subtitle: tr("Start calls with the microphone switched on"), control: microphone),
            ActionRow(title: tr("Camera on when joining"), subtitle: tr("Start calls with the camera switched on"), control: camera),
        ])
    }

    private func ringingGroup(_ onRingVolumeChanged: @escaping @MainActor (Double) -> Void) -> PreferencesGroup {
        let volume = Slider(from: 0, to: 1, step: 0.05)
        volume.value = preferences.ringVolume
        volume.onChange { [preferences] value in
            preferences.ringVolume = value
            onRingVolumeChanged(value)
        }
        controls.append(volume)
        let atLogin = Switch()
        let autostart = LoginAutostart()
        atLogin.isOn = autostart.isEnabled
        atLogin.onChange { [weak atLogin] on in
            do {
                if on { try autostart.enable() } else { try autostart.disable() }
            } catch {
                print("confab: could not \(on ? "write" : "remove") \(autostart.entryPath): \(error)")
                atLogin?.isOn = autostart.isEnabled
            }
        }
        controls += [atLogin]
        return PreferencesGroup(title: tr("Ringing"), rows: [
            ActionRow(title: tr("Ring volume"), control: volume),
            ActionRow(title: tr("Start in the background at login"),
                      subtitle: tr("Stay signed in so calls ring before you open Confab"), control: atLogin),
        ])
    }

    /// Echo cancellation, noise suppression and automatic level, each its own switch.
    private func voiceGroup() -> PreferencesGroup {
        let echo = Switch(), noise = Switch(), gain = Switch()
        let current = preferences.audioProcessing
        echo.isOn = current.echoCancellation
        noise.isOn = current.noiseSuppression
        gain.isOn = current.automaticGainControl
        echo.onChange { [preferences] in preferences.audioProcessing.echoCancellation = $0 }
        noise.onChange { [preferences] in preferences.audioProcessing.noiseSuppression = $0 }
        gain.onChange { [preferences] in preferences.audioProcessing.automaticGainControl = $0 }
        controls += [echo, noise, gain]
        let group = PreferencesGroup(title: tr("Voice"), rows: [
            ActionRow(title: tr("Echo cancellation"), subtitle: tr("Others do not hear themselves come back from your speakers"), control: echo),
            ActionRow(title: tr("Noise suppression"), subtitle: tr("Remove steady background noise such as fans and hum"), control: noise),
            ActionRow(title: tr("Automatic microphone level"), subtitle: tr("Raise a quiet voice, keep a loud one from distorting"), control: gain),
        ])
        group.setDescription(tr("Changes apply from the next call."))
        return group
    }

    private func devicesGroups() -> [PreferencesGroup] {
        let previewGroup = PreferencesGroup(title: tr("Check your camera and microphone"))
        if devicesCheck != nil {
            previewGroup.add(preview.view)
        } else {
            previewGroup.setDescription(tr("The preview is off while a call or a lobby is open."))
        }
        return [previewGroup, deviceSelectors.view]
    }

    private func entry(placeholder: String, text: String?, save: @escaping @MainActor (String?) -> Void) -> Entry {
        let entry = Entry(placeholder: placeholder)
        entry.text = text ?? ""
        entry.setSizeRequest(width: 260, height: -1)
        entry.align(vertical: .center)
        entry.onChanged { [weak entry] in
            guard let entry else { return }
            let value = entry.text.trimmingSpaces()
            save(value.isEmpty ? nil : value)
        }
        return entry
    }

    // MARK: Devices follow the check's state

    private func show(_ frame: VideoFrame) {
        preview.show(frame)
        if !previewHasFrame {
            previewHasFrame = true
            updateDevices()
        }
    }

    private func updateDevices() {
        guard let check = devicesCheck else { return }
        if check.cameraState != .running { previewHasFrame = false }
        preview.update(cameraState: check.cameraState, hasFrame: previewHasFrame, userName: callViewModel.currentUser.name)
        preview.micLevel.update(level: check.microphoneChecker.meterLevel, isOn: check.microphoneState == .running)
        deviceSelectors.update(kind: .camera, devices: check.cameras, selected: check.selectedCamera)
        deviceSelectors.update(kind: .microphone, devices: check.microphones, selected: check.selectedMicrophone)
        deviceSelectors.update(kind: .speaker, devices: check.speakers, selected: check.selectedSpeaker)
    }
}
