import CGLib
import FoundationEssentials
import Glibc

/// Times of day as the user's locale writes them, through GLib (the apps do not link
/// Foundation's ICU formatters: issue 15).
public enum LocalTime {
    /// Hours and minutes in the local time zone: "16:07" where the locale keeps a 24-hour clock
    /// (its own time format uses %H or %T), "4:07 PM" where it keeps a 12-hour one (%I, %r).
    public static func shortText(of date: Date) -> String {
        guard let time = g_date_time_new_from_unix_local(gint64(date.timeIntervalSince1970.rounded(.down))) else { return "" }
        defer { g_date_time_unref(time) }
        let format = usesTwelveHours ? "%l:%M %p" : "%H:%M"
        guard let text = g_date_time_format(time, format) else { return "" }
        defer { g_free(text) }
        return String(String(cString: text).trimmingPrefix(" "))
    }

    /// Whether the locale's own time format counts hours to twelve.
    private static var usesTwelveHours: Bool {
        guard let format = nl_langinfo(nl_item(T_FMT)).map({ String(cString: $0) }) else { return false }
        return format.contains("%I") || format.contains("%r") || format.contains("%l")
    }
}
