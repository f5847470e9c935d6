import CGLib

/// Gettext for the app's words. Every user-visible string goes through `tr`: the English text
/// is the message id, translations live in data/po and are compiled to `confab.mo` catalogs.
public enum Translations {
    /// The gettext domain of Confab's catalogs (data/po/*.po → confab.mo).
    public static let domain = "confab"

    /// Speaks the user's language from now on: the locale from the environment (LANG, LC_ALL,
    /// LANGUAGE) and the catalogs under `localeDirectory` (a …/share/locale folder). Call it
    /// once, first thing, before any widget is made.
    public static func install(localeDirectory: String?) {
        setlocale(LC_ALL, "")
        if let localeDirectory { bindtextdomain(domain, localeDirectory) }
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }
}

extension Translations {
    /// `message` from the catalog (the message itself when it has no translation).
    public static func translate(_ message: String) -> String {
        // Untranslated, gettext hands back the message id's own pointer: a C copy of `message`
        // that lives only inside withCString, so it is read there (or not at all).
        message.withCString { id in
            guard let translated = g_dgettext(domain, id), translated != id else { return message }
            return String(cString: translated)
        }
    }

    /// The plural form of a message for `count` (the English one when it has no translation).
    public static func translate(_ singular: String, _ plural: String, count: Int) -> String {
        let english = count == 1 ? singular : plural
        return singular.withCString { one in
            plural.withCString { many in
                guard let translated = g_dngettext(domain, one, many, gulong(max(count, 0))),
                      translated != one, translated != many else { return english }
                return String(cString: translated)
            }
        }
    }
}
