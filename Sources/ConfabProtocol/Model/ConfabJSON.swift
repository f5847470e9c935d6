import Foundation

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

    /// Where `decoder(preparsing:)` keeps the parsed frame.
    static let parsedFrameKey = CodingUserInfoKey(rawValue: "org.confab.parsedFrame")!

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
