import FoundationEssentials

extension JSONValue {
    /// Parses JSON text in one pass into typed values, each read once as what it is.
    ///
    /// Used to read free-form `custom` data without trial decodes (`ConfabJSON.decoder(preparsing:)`).
    /// Lenient where `JSONDecoder` is strict (it checks the same frame as it decodes it); run
    /// untrusted bytes through `FrameGuard` first, which bounds the recursion here.
    public init(parsing data: Data) throws(JSONValueParseError) {
        var parser = Parser(bytes: [UInt8](data))
        self = try parser.value()
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw JSONValueParseError(offset: parser.position) }
    }
}

/// Where `JSONValue(parsing:)` found something that is not JSON.
public struct JSONValueParseError: Error, Equatable {
    public var offset: Int
}

private struct Parser {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    private var failure: JSONValueParseError { JSONValueParseError(offset: position) }

    mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    mutating func value() throws(JSONValueParseError) -> JSONValue {
        skipSpace()
        guard position < bytes.count else { throw failure }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONValueParseError) -> JSONValue {
        let utf8 = Array(word.utf8)
        guard position + utf8.count <= bytes.count, Array(bytes[position..<position + utf8.count]) == utf8 else { throw failure }
        position += utf8.count
        return value
    }

    private mutating func number() throws(JSONValueParseError) -> JSONValue {
        let start = position
        while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
        guard position > start, let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else { throw failure }
        return .number(number)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    private mutating func array() throws(JSONValueParseError) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipSpace()
            guard position < bytes.count else { throw failure }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "]") else { throw failure }
            position += 1
            return .array(elements)
        }
    }

    private mutating func object() throws(JSONValueParseError) -> JSONValue {
        position += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw failure }
            let key = try string()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw failure }
            position += 1
            let field = try value()
            // A repeated key keeps its first value, as JSONDecoder does (found by the fuzzer:
            // the lookup and the trial decoding must never read different data).
            if fields[key] == nil { fields[key] = field }
            skipSpace()
            guard position < bytes.count else { throw failure }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "}") else { throw failure }
            position += 1
            return .object(fields)
        }
    }

    /// A string starting at the opening quote; escapes decoded (\uXXXX with surrogate pairs).
    private mutating func string() throws(JSONValueParseError) -> String {
        position += 1
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                continue
            }
            guard position < bytes.count else { throw failure }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar), position + 1 < bytes.count,
                   bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                    position += 2
                    let low = try hex4()
                    scalar = (0xDC00...0xDFFF).contains(low) ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                }
                text.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
            default:
                throw failure
            }
        }
        throw failure
    }

    private mutating func hex4() throws(JSONValueParseError) -> UInt32 {
        guard position + 4 <= bytes.count,
              let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
        else { throw failure }
        position += 4
        return value
    }
}
