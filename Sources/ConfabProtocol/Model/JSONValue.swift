/// Any JSON value; used for a call's free-form `custom` data.
public enum JSONValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decoding through `Decoder` cannot ask a value's shape, only try one and fail: each failed
    /// try builds a `DecodingError` whose coding path is as long as the value is deep. That chain
    /// of tries made a 500-deep frame cost 1.5 s and 32,000 numbers 0.4 s (issue 16). So when the
    /// decoder carries the frame already parsed (`ConfabJSON.decoder(preparsing:)`: one typed
    /// pass, `JSONValue(parsing:)`), the value is looked up there by its coding path — one step per level, no tries.
    /// The chain below remains for decoders without it; `FrameGuard` bounds its depth.
    public init(from decoder: any Decoder) throws {
        let stored = decoder.userInfo[ConfabJSON.parsedFrameKey]
        if let frame = (stored as? JSONValue) ?? (stored as? FrameParsedOnDemand)?.value,
           let value = frame.value(at: decoder.codingPath) {
            self = value
            return
        }
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

    /// The value at `path` (object keys by name, array elements by index), or nil.
    func value(at path: [any CodingKey]) -> JSONValue? {
        var current = self
        for key in path {
            switch current {
            case .object(let fields):
                guard let next = fields[key.stringValue] else { return nil }
                current = next
            case .array(let elements):
                guard let index = key.intValue, elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
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
