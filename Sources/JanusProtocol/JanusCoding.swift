import FoundationEssentials

/// The one JSON configuration for Janus frames, both ways.
enum JanusCoding {
    /// Sorted keys: the same request always makes the same bytes (tests compare them, logs diff).
    /// Ids are written by JSONEncoder as integers, exactly (no `Double` on the way).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func decoder() -> JSONDecoder { JSONDecoder() }
}
