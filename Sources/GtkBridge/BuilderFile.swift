import CGLib
import CGtk
import CAdwaita
import GLibBridge

/// A layout declared in a GtkBuilder `.ui` file (GNOME Snapshot's camera.ui is the model): the
/// static widget tree lives in the file, the code looks its widgets up by id and binds them.
/// Strings marked `translatable="yes"` are translated through Confab's gettext domain.
@MainActor
public final class BuilderFile: GObjectReference {
    /// A `.ui` file that could not be read, or a widget the code expected and did not find.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    private var builder: OpaquePointer { c() }
    public let path: String

    /// Reads and builds the whole file; throws with GTK's own message (file and line) when the
    /// file is missing or malformed.
    public init(path: String, translationDomain: String = Translations.domain) throws {
        // GtkBuilder finds classes by name; make sure libadwaita's are registered first.
        _ = adw_header_bar_get_type(); _ = adw_status_page_get_type(); _ = adw_toast_overlay_get_type()
        _ = adw_clamp_get_type(); _ = adw_window_title_get_type(); _ = adw_avatar_get_type()
        self.path = path
        super.init(takingOwnershipOf: UnsafeMutableRawPointer(gtk_builder_new()))
        gtk_builder_set_translation_domain(builder, translationDomain)
        var error: UnsafeMutablePointer<GError>?
        if gtk_builder_add_from_file(builder, path, &error) == 0 {
            let message = error.flatMap { string(from: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw LoadError(description: "\(path): \(message)")
        }
    }

    private func object(_ id: String, of type: GType) throws -> UnsafeMutablePointer<GtkWidget> {
        guard let object = gtk_builder_get_object(builder, id) else {
            throw LoadError(description: "\(path): no object with id “\(id)”")
        }
        guard g_type_check_instance_is_a(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GTypeInstance.self), type) != 0 else {
            throw LoadError(description: "\(path): “\(id)” is not a \(string(from: g_type_name(type)) ?? "widget")")
        }
        return UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
    }

    // Each wrapper takes its own reference: the widget outlives the builder when the wrapper
    // or a container still holds it.
    public func widget(_ id: String) throws -> Widget { Widget(try object(id, of: gtk_widget_get_type())) }
    public func box(_ id: String) throws -> Box { Box(built: try object(id, of: gtk_box_get_type())) }
    public func label(_ id: String) throws -> Label { Label(built: try object(id, of: gtk_label_get_type())) }
    public func button(_ id: String) throws -> Button { Button(existing: try object(id, of: gtk_button_get_type())) }
    public func entry(_ id: String) throws -> Entry { Entry(built: try object(id, of: gtk_entry_get_type())) }
    public func statusPage(_ id: String) throws -> StatusPage { StatusPage(built: try object(id, of: adw_status_page_get_type())) }
    public func toastOverlay(_ id: String) throws -> ToastOverlay { ToastOverlay(built: try object(id, of: adw_toast_overlay_get_type())) }
    public func headerBar(_ id: String) throws -> HeaderBar { HeaderBar(built: try object(id, of: adw_header_bar_get_type())) }
}
