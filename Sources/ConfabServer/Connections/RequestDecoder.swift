import ConfabProtocol
import Foundation

/// A request whose envelope was readable: its payload is decoded once its type is known.
struct IncomingRequest: Sendable {
    var id: String
    var type: RequestType
    var frame: Data
}

/// Turns frames into requests, and decoding failures into errors that name the problem.
enum RequestDecoder {
    /// Reads the envelope. On failure, the error envelope to send back (with the id when known).
    static func envelope(of frame: Data) -> Result<IncomingRequest, ErrorEnvelope> {
        // JSONValue first: it tells "not JSON" apart from "JSON of the wrong shape".
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: frame) else {
            return .failure(ErrorEnvelope(id: nil, type: nil, error: ProtocolError(.malformedJSON, "frame is not valid JSON")))
        }
        guard case .object(let fields) = value else {
            return .failure(ErrorEnvelope(id: nil, type: nil, error: ProtocolError(.invalidRequest, "frame must be a JSON object")))
        }
        let id: String?
        switch fields["id"] {
        case .string(let text): id = text
        case .none, .null: id = nil
        default:
            return .failure(ErrorEnvelope(id: nil, type: nil, error: ProtocolError(.invalidRequest, "id: expected a string")))
        }
        func failure(_ code: ErrorCode, _ message: String, type: String? = nil) -> Result<IncomingRequest, ErrorEnvelope> {
            .failure(ErrorEnvelope(id: id, type: type, error: ProtocolError(code, message)))
        }
        guard case .string(MessageKind.request.rawValue) = fields["kind"] else {
            return failure(.invalidRequest, "kind: expected \"request\"")
        }
        guard let id else { return failure(.invalidRequest, "missing field 'id'") }
        guard case .string(let typeName) = fields["type"] else {
            return failure(.invalidRequest, fields["type"] == nil ? "missing field 'type'" : "type: expected a string")
        }
        guard let type = RequestType(rawValue: typeName) else {
            return failure(.unknownRequestType, "unknown request type '\(typeName)'", type: typeName)
        }
        return .success(IncomingRequest(id: id, type: type, frame: frame))
    }

    /// Decodes the whole envelope with its typed payload.
    static func payload<Request: ConfabRequest>(_: Request.Type, of request: IncomingRequest) throws(ProtocolError) -> Request {
        do {
            return try ConfabJSON.decoder().decode(RequestEnvelope<Request>.self, from: request.frame).payload
        } catch let error as DecodingError {
            throw ProtocolError(.invalidRequest, describe(error))
        } catch {
            throw ProtocolError(.invalidRequest, "\(error)")
        }
    }

    /// "payload.members[0].role: cannot read 'boss' as CallRole" rather than Foundation's dump.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(path(context.codingPath + [key]))'"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(readableName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(readableName(type)), found null"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func readableName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Double.Type: "a number"
        case is [String: JSONValue].Type, is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        default: "\(type)"
        }
    }
}
