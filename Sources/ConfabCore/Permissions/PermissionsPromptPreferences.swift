import FoundationEssentials

/// What the user decided about the permissions banner across calls.
@MainActor
public protocol PermissionsPromptPreferences: AnyObject {
    /// Whether a dismissed banner comes back in the next call (default true).
    var showsAgainNextCall: Bool { get }
    /// Set when the banner was dismissed and should not come back (only kept when
    /// `showsAgainNextCall` is false).
    var isDismissedForGood: Bool { get set }
}

/// The banner preferences in a small JSON file beside the device choices
/// (`~/.config/confab/permissions.json`): `{"showAgainNextCall": true, "dismissed": false}`.
/// A missing or damaged file means the defaults; it is never a reason to fail.
@MainActor
public final class JSONFilePermissionsPromptPreferences: PermissionsPromptPreferences {
    private struct Stored: Codable {
        var showAgainNextCall: Bool?
        var dismissed: Bool?
    }

    private let fileURL: URL
    private var stored: Stored

    public init(fileURL: URL = JSONFilePermissionsPromptPreferences.defaultFileURL) {
        self.fileURL = fileURL
        if let data = try? Data(contentsOf: fileURL), let decoded = try? JSONDecoder().decode(Stored.self, from: data) {
            stored = decoded
        } else {
            stored = Stored()
        }
    }

    public static var defaultFileURL: URL {
        JSONFileDevicePreferences.defaultFileURL.deletingLastPathComponent().appendingPathComponent("permissions.json")
    }

    public var showsAgainNextCall: Bool { stored.showAgainNextCall ?? true }

    public var isDismissedForGood: Bool {
        get { stored.dismissed ?? false }
        set {
            guard newValue != isDismissedForGood else { return }
            stored.dismissed = newValue
            save()
        }
    }

    private func save() {
        do {
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(stored).write(to: fileURL, options: .atomic)
        } catch {
            print("confab: could not save the permissions banner preference to \(fileURL.path): \(error)")
        }
    }
}
