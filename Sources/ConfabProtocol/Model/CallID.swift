import FoundationEssentials
/// A call's identity, written `type:id` on the wire (the seed's `callCid`), e.g. `default:standup`.
public struct CallID: Hashable, Sendable, Codable, CustomStringConvertible, LosslessStringConvertible {
    public var type: CallType
    public var id: String

    public init(type: CallType, id: String) {
        self.type = type
        self.id = id
    }

    /// Parses `type:id`; nil when the type is unknown or the id is empty, too long or has
    /// characters outside `A-Z a-z 0-9 _ - .`.
    public init?(_ description: String) {
        guard let parsed = try? Self.parse(description) else { return nil }
        self = parsed
    }

    public var description: String { "\(type.rawValue):\(id)" }

    /// What a person typed or a link carried: "default:standup", or a bare "standup" for the
    /// default call type. The same rules as `parse`, so nothing opens that the server refuses.
    public static func parse(userInput text: String) throws(CallIDError) -> CallID {
        let trimmed = text.trimmingSpaces()
        return try parse(trimmed.contains(":") ? trimmed : "\(CallType.default.rawValue):\(trimmed)")
    }

    /// Parses `type:id`, explaining what is wrong when it cannot.
    public static func parse(_ text: String) throws(CallIDError) -> CallID {
        guard let colon = text.firstIndex(of: ":") else { throw .missingColon(text) }
        let typeName = String(text[..<colon])
        let id = String(text[text.index(after: colon)...])
        guard let type = CallType(rawValue: typeName) else { throw .unknownCallType(typeName) }
        guard !id.isEmpty, id.count <= 64, id.unicodeScalars.allSatisfy(isAllowedInID) else { throw .invalidID(id) }
        return CallID(type: type, id: id)
    }

    /// The characters an id may have: ASCII letters and digits, "_", "-" and ".".
    public static func isAllowedInID(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "_" || scalar == "-" || scalar == "."
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try Self.parse(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why a string is not a valid `type:id`.
public enum CallIDError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingColon(String)
    case unknownCallType(String)
    case invalidID(String)

    public var description: String {
        switch self {
        case .missingColon(let text): "call id '\(text)' is not of the form type:id"
        case .unknownCallType(let type):
            "unknown call type '\(type)' (known: \(CallType.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .invalidID(let id): "call id '\(id)' must be 1-64 characters of A-Z a-z 0-9 _ - ."
        }
    }
}
