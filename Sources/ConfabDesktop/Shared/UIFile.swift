import GLibBridge
import GtkBridge

/// The pages' static layouts, `Resources/ui/*.ui`: found beside the sources when run from the
/// checkout (`swift build`, the tests) and under share/confab/ui once installed (meson installs
/// Resources/ as a whole).
@MainActor
enum UIFile {
    /// The built file `name` (e.g. "home-page.ui"). The app cannot show a page without its
    /// layout: a missing or broken file stops it with the path and GTK's message.
    static func load(_ name: String) -> BuilderFile {
        guard let path = ResourceLocator.path(of: "ui/\(name)") else {
            fatalError("Confab's page layout ui/\(name) was not found (looked in CONFAB_DATA_DIR, share/confab and the source tree); reinstall Confab")
        }
        do {
            return try BuilderFile(path: path)
        } catch {
            fatalError("Confab's page layout is broken: \(error)")
        }
    }

    /// A widget the file must have, by id; a mismatch between file and code is a packaging
    /// error, reported with both names.
    static func require<T>(_ lookup: () throws -> T) -> T {
        do { return try lookup() } catch { fatalError("Confab's page layout does not match the app: \(error)") }
    }
}
