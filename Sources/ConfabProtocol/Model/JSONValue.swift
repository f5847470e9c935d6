/// Any JSON value; used for a call's free-form `custom` data.
public enum JSONValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Each failed attempt below builds a `DecodingError` whose coding path is as long as the
    /// value is deep, which made a 500-deep frame cost 1.5 s (the attempts multiplied by the
    /// depth at every level). Frames are now refused past 32 levels by `FrameGuard` before
    /// decoding, which bounds that; the order puts the shapes `custom` data and Janus replies
    /// mostly hold (strings, objects) first, so most values decode on the first or second try.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Bool.self) {
            // Before Double: a decoder that bridges through NSNumber would read `true` as 1.
            self = .bool(value)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
