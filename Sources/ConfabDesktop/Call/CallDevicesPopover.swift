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

    init(devices: GStreamerDeviceSource, preferences: DevicePreferences, onChange: @escaping @MainActor () -> Void) {
        self.devices = devices
        self.preferences = preferences
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

    /// Re-reads what is plugged in (called when the popover's owner updates).
    func refresh() {
        let present = devices.devicesNow()
        for kind in MediaDevice.Kind.allCases {
            let ofKind = present.filter { $0.kind == kind }
            selectors.update(kind: kind, devices: ofKind,
                             selected: DeviceChoice.pick(from: ofKind, preferredID: preferences.preferredDeviceID(for: kind)))
        }
    }
}
