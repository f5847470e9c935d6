import FoundationEssentials

/// The JSON coders both ends must use: ISO 8601 dates with milliseconds, sorted keys.
public enum ConfabJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(dateStyle))
        }
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            // Accept dates with or without fractional seconds: people write the latter by hand.
            if let date = try? Date(text, strategy: dateStyle) { return date }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not an ISO 8601 date (e.g. 2026-11-22T10:00:00.000Z)")
        }
        return decoder
    }

    /// The decoder for one frame that holds free-form `JSONValue`s (a call's `custom`): the frame
    /// is parsed once up front, and each `JSONValue` is then looked up instead of found by trial
    /// decodes (see `JSONValue.init(from:)`). Check the frame with `FrameGuard` first.
    public static func decoder(preparsing frame: Data) -> JSONDecoder {
        let decoder = decoder()
        if let parsed = try? JSONValue(parsing: frame) { decoder.userInfo[parsedFrameKey] = parsed }
        return decoder
    }

    /// The decoder for one frame that may or may not hold free-form `JSONValue`s: the frame is
    /// parsed for them (as `decoder(preparsing:)` does) only when the first one is decoded, so
    /// that a frame without any is read by the typed decode alone. Check it with `FrameGuard` first.
    public static func decoder(parsingOnDemand frame: Data) -> JSONDecoder {
        let decoder = decoder()
        decoder.userInfo[parsedFrameKey] = FrameParsedOnDemand(frame)
        return decoder
    }

    /// Where `decoder(preparsing:)` and `decoder(parsingOnDemand:)` keep the parsed frame.
    static let parsedFrameKey = CodingUserInfoKey(rawValue: "org.confab.parsedFrame")!

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

/// A frame parsed into a `JSONValue` tree the first time one of its free-form values is read.
/// One decoder decodes one frame on one thread (a `JSONDecoder.decode` call), so the cache needs
/// no lock; `Sendable` only because `userInfo` asks for it.
final class FrameParsedOnDemand: @unchecked Sendable {
    private let frame: Data
    private var parsed: JSONValue??

    init(_ frame: Data) { self.frame = frame }

    var value: JSONValue? {
        if let parsed { return parsed }
        let value = try? JSONValue(parsing: frame)
        parsed = .some(value)
        return value
    }
}
