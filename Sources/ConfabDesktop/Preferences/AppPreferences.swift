import ConfabCore
import FoundationEssentials
import GLibBridge
import GtkBridge

/// The user's preferences, kept in GSettings (schema org.confab.Confab in data/) when that schema
/// is installed, so `gsettings` and the desktop see them.
///
/// Without the schema (running from a checkout without `make run`'s compiled copy, or a stale
/// install) the device choices and layout stay in the JSON file of earlier versions and the
/// other preferences keep their defaults. A GSettings key still at its default falls back to the
/// JSON file's value, so choices made before the move are not lost.
@MainActor
public final class AppPreferences {
    static let schemaID = "org.confab.Confab"
    static let keys = ["server-url", "user", "token", "camera", "microphone", "speaker", "microphone-on-join",
                       "camera-on-join", "echo-cancellation", "noise-suppression", "automatic-gain-control", "layout", "show-permissions-banner", "ring-volume", "window-width", "window-height", "window-maximized", "self-view-corner"]

    private let settings: Settings?
    private let legacyFile: JSONFileDevicePreferences

    public init(legacyFile: JSONFileDevicePreferences = JSONFileDevicePreferences()) {
        settings = Settings(schemaID: Self.schemaID, requiredKeys: Self.keys)
        self.legacyFile = legacyFile
    }

    /// Whether preferences are stored in GSettings (the Preferences window says so when not).
    public var isStoredInGSettings: Bool { settings != nil }

    // MARK: Account (command-line options and the environment win over these)

    public var serverURL: String? {
        get { nonEmpty(settings?.string("server-url")) }
        set { settings?.setString("server-url", newValue ?? "") }
    }

    public var userID: String? {
        get { nonEmpty(settings?.string("user")) }
        set { settings?.setString("user", newValue ?? "") }
    }

    public var token: String? {
        get { nonEmpty(settings?.string("token")) }
        set { settings?.setString("token", newValue ?? "") }
    }

    // MARK: Calls

    public var microphoneOnJoin: Bool {
        get { settings?.bool("microphone-on-join") ?? true }
        set { settings?.setBool("microphone-on-join", newValue) }
    }

    public var cameraOnJoin: Bool {
        get { settings?.bool("camera-on-join") ?? true }
        set { settings?.setBool("camera-on-join", newValue) }
    }

    /// What a call starts with: the microphone and camera as the user wants them on joining.
    public var callSettingsOnJoin: CallSettings {
        CallSettings.default.withUpdatedAudioState(microphoneOnJoin).withUpdatedVideoState(cameraOnJoin)
    }

    /// Voice processing on the microphone in calls; each on unless turned off.
    public var audioProcessing: AudioProcessing {
        get {
            guard let settings else { return .default }
            return AudioProcessing(echoCancellation: settings.bool("echo-cancellation"), noiseSuppression: settings.bool("noise-suppression"),
                                   automaticGainControl: settings.bool("automatic-gain-control"))
        }
        set {
            settings?.setBool("echo-cancellation", newValue.echoCancellation)
            settings?.setBool("noise-suppression", newValue.noiseSuppression)
            settings?.setBool("automatic-gain-control", newValue.automaticGainControl)
        }
    }

    public var layout: ParticipantsLayout? {
        get { (nonEmpty(settings?.string("layout")) ?? legacyFile.value(forKey: "layout")).flatMap(ParticipantsLayout.init(rawValue:)) }
        set {
            guard let newValue else { return }
            if let settings { settings.setString("layout", newValue.rawValue) } else { legacyFile.set(newValue.rawValue, forKey: "layout") }
        }
    }

    /// Where the self-view sits over the others' video, where the user last moved it.
    public var selfViewCorner: TileGridPlan.Corner {
        get { settings.flatMap { TileGridPlan.Corner(rawValue: $0.string("self-view-corner")) } ?? .bottomRight }
        set { settings?.setString("self-view-corner", newValue.rawValue) }
    }

    /// 0…1, the volume of ringing and dialling.
    public var ringVolume: Double {
        get { settings?.double("ring-volume") ?? 0.8 }
        set { settings?.setDouble("ring-volume", min(max(newValue, 0), 1)) }
    }

    public var showsPermissionsBanner: Bool {
        get { settings?.bool("show-permissions-banner") ?? true }
        set { settings?.setBool("show-permissions-banner", newValue) }
    }

    /// The main window's size the first time it opens: room for a one-to-one call's large
    /// picture with the self-view in its corner (under 720x405 for the participants, it joins
    /// the grid). The schema's window-width and window-height defaults say the same.
    public nonisolated static let firstWindowSize = (width: 900, height: 700)

    public var windowSize: (width: Int, height: Int)? {
        guard let settings else { return nil }
        return (settings.integer("window-width"), settings.integer("window-height"))
    }

    /// The size is the window's own (GTK keeps it while the window is maximized or full
    /// screen), so a maximized window opens maximized and, once restored, at that size again.
    public func rememberWindowSize(width: Int, height: Int, maximized: Bool) {
        settings?.setBool("window-maximized", maximized)
        guard width >= 200, height >= 200 else { return }
        settings?.setInteger("window-width", width)
        settings?.setInteger("window-height", height)
    }

    public var windowMaximized: Bool { settings?.bool("window-maximized") ?? false }

    /// Flushes GSettings before the process ends.
    public func save() { if settings != nil { Settings.sync() } }

    private func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
}

extension AppPreferences: DevicePreferences {
    public func preferredDeviceID(for kind: MediaDevice.Kind) -> String? {
        nonEmpty(settings?.string(kind.rawValue)) ?? legacyFile.preferredDeviceID(for: kind)
    }

    public func setPreferredDeviceID(_ id: String, for kind: MediaDevice.Kind) {
        if let settings { settings.setString(kind.rawValue, id) } else { legacyFile.setPreferredDeviceID(id, for: kind) }
    }
}
