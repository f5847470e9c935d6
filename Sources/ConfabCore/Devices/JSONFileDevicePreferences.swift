import FoundationEssentials

/// Device choices kept in a small JSON file (`~/.config/confab/devices.json`).
/// A missing or damaged file means "no preference"; it is never a reason to fail.
@MainActor
public final class JSONFileDevicePreferences: DevicePreferences {
    private let fileURL: URL
    private var choices: [String: String]

    public init(fileURL: URL = JSONFileDevicePreferences.defaultFileURL) {
        self.fileURL = fileURL
        if let data = try? Data(contentsOf: fileURL),
           let decoded = try? JSONDecoder().decode([String: String].self, from: data) {
            choices = decoded
        } else {
            choices = [:]
        }
    }

    public static var defaultFileURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let configHome = environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return configHome.appendingPathComponent("confab/devices.json")
    }

    public func preferredDeviceID(for kind: MediaDevice.Kind) -> String? { choices[kind.rawValue] }

    public func setPreferredDeviceID(_ id: String, for kind: MediaDevice.Kind) { set(id, forKey: kind.rawValue) }

    /// Other small preferences kept in the same file (the call layout).
    public func value(forKey key: String) -> String? { choices[key] }

    public func set(_ value: String, forKey key: String) {
        guard choices[key] != value else { return }
        choices[key] = value
        do {
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(choices).write(to: fileURL, options: .atomic)
        } catch {
            // Losing a preference is not worth interrupting the user; the choice still applies now.
            print("confab: could not save device choice to \(fileURL.path): \(error)")
        }
    }
}
