import CGLib
import CGtk
import CAdwaita
import GLibBridge

/// AdwAboutWindow: the app's name, version, authors, links and licence, as GNOME apps show them.
@MainActor
public enum AboutWindow {
    public struct Details: Sendable {
        public var name: String
        public var iconName: String
        public var version: String
        public var developer: String
        public var website: String?
        public var issueURL: String?
        public var comments: String

        public init(name: String, iconName: String, version: String, developer: String, website: String? = nil,
                    issueURL: String? = nil, comments: String) {
            self.name = name
            self.iconName = iconName
            self.version = version
            self.developer = developer
            self.website = website
            self.issueURL = issueURL
            self.comments = comments
        }
    }

    /// Shows the About window over `parent` (it destroys itself when closed).
    public static func present(_ details: Details, over parent: Window?) {
        let about = adw_about_window_new()!
        let window: OpaquePointer = about.c()
        adw_about_window_set_application_name(window, details.name)
        adw_about_window_set_application_icon(window, details.iconName)
        adw_about_window_set_version(window, details.version)
        adw_about_window_set_developer_name(window, details.developer)
        if let website = details.website { adw_about_window_set_website(window, website) }
        if let issueURL = details.issueURL { adw_about_window_set_issue_url(window, issueURL) }
        adw_about_window_set_comments(window, details.comments)
        adw_about_window_set_license_type(window, GTK_LICENSE_GPL_3_0)
        if let parent { gtk_window_set_transient_for(about.c(), parent.c()) }
        gtk_window_set_modal(about.c(), 1)
        gtk_window_present(about.c())
    }
}
