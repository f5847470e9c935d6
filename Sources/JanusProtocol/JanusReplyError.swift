// FrameGuard comes from ConfabProtocol; the fuzz harness compiles both into one module.
#if canImport(ConfabProtocol)
import ConfabProtocol
#endif
import FoundationEssentials

/// Why a frame from Janus was not read as a `JanusReply`. Frames come from the network: every
/// way one can be wrong ends here, typed, never in a crash.
public enum JanusReplyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Too large or too deeply nested to hand to the JSON parser (`FrameGuard`).
    case refused(FrameGuard.Refusal)
    /// Not JSON, or not a JSON object.
    case notJSON
    /// A `janus` kind we do not know.
    case unknownKind(String)
    /// A field the kind requires is absent (`path` is dotted: "plugindata.data.videoroom").
    case missingField(path: String)
    /// A field has the wrong type: a string where an id goes, a negative or fractional id, an
    /// id beyond 64 bits.
    case wrongType(path: String)
    /// Plugin data from a plugin we never attach to.
    case unexpectedPlugin(String)

    public var description: String {
        switch self {
        case .refused(let refusal): "refused before parsing: \(refusal)"
        case .notJSON: "not a JSON object"
        case .unknownKind(let kind): "unknown message kind '\(kind.prefix(40))'"
        case .missingField(let path): "no '\(path)'"
        case .wrongType(let path): "'\(path)' has the wrong type"
        case .unexpectedPlugin(let plugin): "data from plugin '\(plugin.prefix(60))'"
        }
    }

    /// The typed error for what JSONDecoder reported.
    init(_ error: DecodingError) {
        func path(_ keys: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            (keys + (last.map { [$0] } ?? [])).map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            self = .missingField(path: path(context.codingPath, key))
        case .valueNotFound(_, let context):
            self = context.codingPath.isEmpty ? .notJSON : .missingField(path: path(context.codingPath))
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            self = context.codingPath.isEmpty ? .notJSON : .wrongType(path: path(context.codingPath))
        @unknown default:
            self = .notJSON
        }
    }
}
