import ConfabCore
import ConfabMedia
import GLibBridge
import GtkBridge

/// Camera, microphone and speaker pickers during a call. A new choice is remembered (as in
/// the lobby) and used at once, without leaving the call: a short gap, then the new device.
@MainActor
final class CallDevicesPopover {
    let button: MenuButton
    private let selectors: DeviceSelectors
    private let devices: GStreamerDeviceSource
    private let preferences: DevicePreferences
    private let onChange: @MainActor () -> Void
    /// Tells the user that a chosen device was pulled out or plugged back in, and what its kind
    /// uses now (the call's `LocalMedia`).
    private let onRememberedDevice: @MainActor (RememberedDeviceChange, _ nowUsing: MediaDevice?) -> Void
    /// Watches devices come and go while a call is shown: a monitor of its own (one
    /// `DeviceSource` serves one watcher, and the lobby's stops when the lobby closes, after
    /// the call page is up). Only which devices are there is read from it.
    private let watcher = GStreamerDeviceSource(includeTestDevices: false)
    /// What the watcher listed last (nil before it started).
    private var present: [MediaDevice]?

    init(devices: GStreamerDeviceSource, preferences: DevicePreferences, onChange: @escaping @MainActor () -> Void,
         onRememberedDevice: @escaping @MainActor (RememberedDeviceChange, _ nowUsing: MediaDevice?) -> Void) {
        self.devices = devices
        self.preferences = preferences
        self.onChange = onChange
        self.onRememberedDevice = onRememberedDevice
        selectors = DeviceSelectors { device in
            guard preferences.preferredDeviceID(for: device.kind) != device.id else { return }
            preferences.setPreferredDeviceID(device.id, for: device.kind)
            onChange()
        }
        selectors.view.setSizeRequest(width: 360, height: -1)
        // Not a speaker icon: that reads as "mute the speaker".
        button = MenuButton(iconName: "preferences-system-devices-symbolic", accessibleLabel: tr("Devices"), content: selectors.view)
        button.tooltip = tr("Camera, microphone and speaker")
        button.addCSSClass("circular")
        button.opensUpward()
        // Cameras and headsets come and go during a call: list what is plugged in now.
        button.onOpen { [weak self] in self?.refresh() }
        refresh()
    }

    /// Follows devices coming and going for as long as the call is shown (until
    /// `stopWatching`): the lists stay current, and a remembered device is let go when it is
    /// pulled out and used again at once when it is plugged back in.
    func startWatching() {
        watcher.startMonitoring { [weak self] now in self?.devicesChanged(now) }
    }

    func stopWatching() {
        watcher.stopMonitoring()
        present = nil
    }

    private func devicesChanged(_ now: [MediaDevice]) {
        defer { present = now }
        guard let before = present else { return }
        let listed = refresh()
        // The call's devices are chosen again from what is there: the remembered one while it
        // is plugged in, else the system's default.
        let changes = DeviceChoice.rememberedDevicesPluggedInOrOut(before: before, now: now, preferredID: preferences.preferredDeviceID(for:))
        guard !changes.isEmpty else { return }
        onChange()
        for change in changes {
            let kind = change.device.kind
            onRememberedDevice(change, DeviceChoice.pick(from: listed.filter { $0.kind == kind }, preferredID: preferences.preferredDeviceID(for: kind)))
        }
    }

    /// Re-reads what is plugged in (called when the popover's owner updates); returns it.
    @discardableResult
    func refresh() -> [MediaDevice] {
        let present = devices.devicesNow()
        for kind in MediaDevice.Kind.allCases {
            let ofKind = present.filter { $0.kind == kind }
            selectors.update(kind: kind, devices: ofKind,
                             selected: DeviceChoice.pick(from: ofKind, preferredID: preferences.preferredDeviceID(for: kind)))
        }
        return present
    }
}
