import FoundationEssentials

/// "Start in the background at login": an XDG autostart entry in the user's own autostart
/// folder (`$XDG_CONFIG_HOME/autostart`, else `~/.config/autostart`), which every desktop that
/// follows the XDG autostart spec runs at login. It starts Confab as a hidden service, signed
/// in, so calls ring as notifications before any window is opened. Removing the file turns it
/// off; a copy the user made by hand counts as on.
struct LoginAutostart {
    static let fileName = "org.confab.Confab-background.desktop"
    let entryPath: String

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config")
        entryPath = configHome + "/autostart/" + Self.fileName
    }

    var isEnabled: Bool { FileManager.default.fileExists(atPath: entryPath) }

    /// Writes the entry, starting `executable` (this program, by default) in the background.
    func enable(executable: String = LoginAutostart.currentExecutable) throws {
        let folder = URL(fileURLWithPath: entryPath).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.entry(executable: executable).write(toFile: entryPath, atomically: true, encoding: .utf8)
    }

    func disable() throws {
        guard isEnabled else { return }
        try FileManager.default.removeItem(atPath: entryPath)
    }

    /// The entry's text. The Exec path is quoted as the Desktop Entry spec asks when it holds
    /// spaces or reserved characters.
    static func entry(executable: String) -> String {
        let reserved = Set(" \t\"'\\><~|&;$*?#()`")
        let escaped = executable.replacing("\\", with: "\\\\\\\\").replacing("\"", with: "\\\\\"")
            .replacing("`", with: "\\\\`").replacing("$", with: "\\\\$")
        let program = executable.contains(where: reserved.contains) ? "\"\(escaped)\"" : executable
        return """
        [Desktop Entry]
        Type=Application
        Name=Confab (background)
        Comment=Stay signed in so that calls can ring while no window is open
        Exec=\(program) --gapplication-service
        Icon=org.confab.Confab
        Terminal=false
        NoDisplay=true
        X-GNOME-AutoRestart=true
        X-GNOME-UsesNotifications=true

        """
    }

    /// This program's own path (so a build outside PATH starts itself, not another Confab).
    static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
