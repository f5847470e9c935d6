/// The user's words. Every sentence the app shows goes through `tr` (or `trn` when it counts
/// something): the English text is the message id, data/po holds the translations. The core
/// has no C, so the app installs the translator (gettext, in GLibBridge) once at start;
/// until then, and in tests and confab-peer, the English text is used as it is.
public enum Wording {
    /// Translates a message id; a plural pair and a count. Set once, before anything runs.
    nonisolated(unsafe) private static var translator: @Sendable (String) -> String = { $0 }
    nonisolated(unsafe) private static var pluralTranslator: @Sendable (String, String, Int) -> String = { one, many, count in
        count == 1 ? one : many
    }

    /// Makes every `tr` speak the user's language (the desktop app calls it first thing).
    public static func install(translate: @escaping @Sendable (String) -> String,
                               translatePlural: @escaping @Sendable (String, String, Int) -> String) {
        translator = translate
        pluralTranslator = translatePlural
    }

    static func translate(_ message: String) -> String { translator(message) }
    static func translate(_ singular: String, _ plural: String, count: Int) -> String { pluralTranslator(singular, plural, count) }

    /// Puts `values` into the `%@` / `%N$@` slots of `format` (`%%` is a percent sign).
    /// A translation may reorder the values with positions: its word order is not English's.
    public static func fill(_ format: String, with values: [String]) -> String {
        var result = ""
        var next = 0
        var characters = format[...]
        while let percent = characters.firstIndex(of: "%") {
            result += characters[..<percent]
            let rest = characters[characters.index(after: percent)...]
            if rest.first == "%" {
                result += "%"
                characters = rest.dropFirst()
                continue
            }
            let digits = rest.prefix(while: \.isNumber)
            if !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix("$@"), let position = Int(digits) {
                result += position >= 1 && position <= values.count ? values[position - 1] : ""
                characters = rest.dropFirst(digits.count + 2)
                continue
            }
            if rest.first == "@" {
                result += next < values.count ? values[next] : ""
                next += 1
                characters = rest.dropFirst()
                continue
            }
            result += "%"
            characters = rest
        }
        return result + characters
    }
}

/// `message` in the user's language.
public func tr(_ message: String) -> String { Wording.translate(message) }

/// A translated sentence with values: `tr("Call with %@", name)`.
public func tr(_ format: String, _ values: String...) -> String { Wording.fill(Wording.translate(format), with: values) }

/// A sentence about `count` things in the right plural form: `trn("%@ person", "%@ people", n)`;
/// `%@` (or `%1$@`) is the count, the other values follow it.
public func trn(_ singular: String, _ plural: String, _ count: Int, _ values: String...) -> String {
    Wording.fill(Wording.translate(singular, plural, count: count), with: ["\(count)"] + values)
}
