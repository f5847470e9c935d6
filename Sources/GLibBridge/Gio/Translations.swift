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

/// `message` in the user's language (the English text itself when there is no translation).
public func tr(_ message: String) -> String {
    // Untranslated, gettext hands back the message id's own pointer: a C copy of `message`
    // that lives only inside withCString, so it is read there (or not at all).
    message.withCString { id in
        guard let translated = g_dgettext(Translations.domain, id), translated != id else { return message }
        return String(cString: translated)
    }
}

/// A translated sentence with values: `tr("Call with %@", name)`. A translation may put the
/// values in another order with `%1$@`, `%2$@` (its word order is not ours).
public func tr(_ format: String, _ values: String...) -> String {
    Translations.fill(tr(format), with: values)
}

/// A sentence about `count` things in the right plural form of the user's language (German and
/// English have two, others more): `trn("%@ person", "%@ people", n)`; `%@` is the count.
public func trn(_ singular: String, _ plural: String, _ count: Int, _ values: String...) -> String {
    let english = count == 1 ? singular : plural
    let chosen = singular.withCString { one in
        plural.withCString { many in
            guard let translated = g_dngettext(Translations.domain, one, many, gulong(max(count, 0))),
                  translated != one, translated != many else { return english }
            return String(cString: translated)
        }
    }
    return Translations.fill(chosen, with: ["\(count)"] + values)
}

extension Translations {
    /// Puts `values` into the `%@` / `%N$@` slots of `format` (`%%` is a percent sign).
    static func fill(_ format: String, with values: [String]) -> String {
        var result = ""
        var next = 0
        var characters = format[...]
        while let percent = characters.firstIndex(of: "%") {
            result += characters[..<percent]
            var rest = characters[characters.index(after: percent)...]
            if rest.first == "%" {
                result += "%"
                characters = rest.dropFirst()
                continue
            }
            // %N$@: an explicit position.
            let digits = rest.prefix(while: \.isNumber)
            if !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix("$@"), let position = Int(digits) {
                result += position >= 1 && position <= values.count ? values[position - 1] : ""
                characters = rest.dropFirst(digits.count + 2)
                continue
            }
            if rest.first == "@" {
                result += next < values.count ? values[next] : ""
                next += 1
                rest = rest.dropFirst()
                characters = rest
                continue
            }
            result += "%"
            characters = rest
        }
        return result + characters
    }
}
