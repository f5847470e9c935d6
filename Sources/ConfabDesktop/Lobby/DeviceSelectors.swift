import ConfabCore
import GLibBridge
import GtkBridge

/// Camera, microphone and speaker pickers. Lists follow plugging and unplugging; a pick is
/// reported to `onSelect` (the view model remembers it).
@MainActor
final class DeviceSelectors {
    let view: PreferencesGroup
    private var rows: [MediaDevice.Kind: ComboRow] = [:]
    private var shown: [MediaDevice.Kind: [MediaDevice]] = [:]

    init(onSelect: @escaping @MainActor (MediaDevice) -> Void) {
        view = PreferencesGroup(title: tr("Devices"))
        for kind in MediaDevice.Kind.allCases {
            let row = ComboRow(title: kind.title)
            row.onSelectionChanged { [weak self] index in
                guard let devices = self?.shown[kind], devices.indices.contains(index) else { return }
                onSelect(devices[index])
            }
            rows[kind] = row
            view.add(row)
        }
    }

    func update(kind: MediaDevice.Kind, devices: [MediaDevice], selected: MediaDevice?) {
        guard let row = rows[kind] else { return }
        let names = devices.isEmpty ? [kind.noneFound] : devices.map(\.name)
        let selectedIndex = selected.flatMap { selected in devices.firstIndex { $0.isSameDevice(as: selected) } } ?? 0
        if shown[kind] != devices || row.selectedIndex != selectedIndex {
            shown[kind] = devices
            row.setItems(names, selected: selectedIndex)
        }
        row.isSensitive = !devices.isEmpty
    }
}

extension MediaDevice.Kind {
    var title: String {
        switch self { case .camera: tr("Camera"); case .microphone: tr("Microphone"); case .speaker: tr("Speaker") }
    }

    var noneFound: String {
        switch self { case .camera: tr("No camera found"); case .microphone: tr("No microphone found"); case .speaker: tr("No speaker found") }
    }
}
