import ConfabProtocol
import Foundation

// The Janus WebSocket API messages Confab uses (janus-protocol): session and handle
// management, plugin messages with an optional JSEP, and trickled candidates.

/// An SDP offer or answer as Janus carries it.
public struct JSEP: Codable, Sendable, Equatable {
    public var type: String
    public var sdp: String
    public init(type: String, sdp: String) { self.type = type; self.sdp = sdp }
}

/// One ICE candidate to trickle, or the end of candidates.
struct JanusCandidate: Encodable, Sendable {
    var sdpMLineIndex: Int?
    var candidate: String?
    var completed: Bool?
}

/// Everything we send to Janus.
struct JanusOutgoing: Encodable, Sendable {
    var janus: String
    var transaction: String
    var session_id: UInt64?
    var handle_id: UInt64?
    var plugin: String?
    var body: JSONValue?
    var jsep: JSEP?
    var candidate: JanusCandidate?
}

/// Everything Janus sends us (fields absent in a message are nil).
struct JanusIncoming: Decodable, Sendable {
    struct IDData: Decodable, Sendable { var id: UInt64 }
    struct PluginData: Decodable, Sendable { var plugin: String; var data: JSONValue }
    struct ErrorBody: Decodable, Sendable { var code: Int; var reason: String }

    var janus: String
    var transaction: String?
    var session_id: UInt64?
    var sender: UInt64?
    var data: IDData?
    var plugindata: PluginData?
    var jsep: JSEP?
    var error: ErrorBody?
}

/// A failure reported by Janus or its plugin, or a broken signalling connection.
public struct JanusError: Error, CustomStringConvertible, Sendable, Equatable {
    public let code: Int
    public let reason: String
    public init(code: Int, reason: String) { self.code = code; self.reason = reason }
    public var description: String { "Janus error \(code): \(reason)" }
}

/// What a plugin answered to a request (its `plugindata.data`) and the JSEP that came with it.
public struct JanusReply: Sendable {
    public let data: JSONValue
    public let jsep: JSEP?
}

/// Something Janus told us about a handle without being asked (new publishers, talking,
/// `webrtcup`, `hangup` …). `kind` is the Janus message type ("event", "webrtcup", "hangup" …).
public struct JanusHandleEvent: Sendable {
    public let kind: String
    public let data: JSONValue?
    public let jsep: JSEP?
}

extension JSONValue {
    /// A field of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var numberValue: Double? { if case .number(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// Janus ids are integers below 2^53, so a JSON double holds them exactly.
    public var idValue: UInt64? { numberValue.flatMap { $0 >= 0 && $0 < 9_007_199_254_740_992 ? UInt64($0) : nil } }
}
