// FrameGuard comes from ConfabProtocol; the fuzz harness compiles both into one module.
#if canImport(ConfabProtocol)
import ConfabProtocol
#endif
import FoundationEssentials

/// One message from Janus, read into what it means. Answers carry the transaction of the
/// request they answer; the rest is about a handle (`sender`) or the session.
public enum JanusReply: Sendable, Equatable {
    /// The request arrived; for plugin requests that take time the answer follows as an `event`.
    case ack(transaction: String)
    /// The request succeeded: `create`/`attach` give the new session or handle id, a plugin
    /// message the plugin's answer.
    case success(transaction: String, result: Success)
    /// The Janus core refused a request (bad session, unknown handle, bad JSON …).
    case error(transaction: String?, JanusRefusal)
    /// The plugin speaks: the late answer to a request (with its transaction) or news about the
    /// room (without), with an SDP when it offers or answers.
    case event(transaction: String?, sender: UInt64, data: VideoRoomResponse, jsep: JSEP?)
    /// The handle's PeerConnection is up (ICE and DTLS done).
    case webrtcUp(sender: UInt64)
    /// The handle's PeerConnection went down.
    case hangup(sender: UInt64, reason: String?)
    /// Janus started or stopped receiving a stream of the handle's PeerConnection.
    case media(sender: UInt64, type: String, receiving: Bool)
    /// Many packets lost on the handle's PeerConnection.
    case slowLink(sender: UInt64, uplink: Bool, lost: Int?)
    /// The handle is gone (detached by us, or by Janus).
    case detached(sender: UInt64)
    /// Janus dropped the session after missing keepalives.
    case timeout(session: UInt64)
    /// The answer to `info`.
    case serverInfo(transaction: String, name: String?, version: String?)

    /// What a `success` carries.
    public enum Success: Sendable, Equatable {
        /// `create` and `attach`: the new session or handle.
        case created(id: UInt64)
        /// A plugin answered a message at once.
        case plugin(VideoRoomResponse)
        /// `destroy`, `detach`: nothing more to say.
        case done
    }

    /// The transaction of the request this answers, if it answers one.
    public var transaction: String? {
        switch self {
        case .ack(let transaction), .success(let transaction, _), .serverInfo(let transaction, _, _): transaction
        case .error(let transaction, _), .event(let transaction, _, _, _): transaction
        case .webrtcUp, .hangup, .media, .slowLink, .detached, .timeout: nil
        }
    }

    /// The handle the message is about, if it concerns one.
    public var sender: UInt64? {
        switch self {
        case .event(_, let sender, _, _), .webrtcUp(let sender), .hangup(let sender, _), .media(let sender, _, _),
             .slowLink(let sender, _, _), .detached(let sender):
            sender
        case .ack, .success, .error, .timeout, .serverInfo: nil
        }
    }

    /// Reads one text frame from Janus: checked by `FrameGuard` before any parser sees it, then
    /// decoded; anything else is a typed error.
    public static func decode(_ text: String) throws(JanusReplyError) -> JanusReply {
        do throws(FrameGuard.Refusal) {
            try FrameGuard.check(text, limits: .janus)
        } catch {
            throw .refused(error)
        }
        do {
            return try JanusCoding.decoder().decode(Wire.self, from: Data(text.utf8)).reply()
        } catch let error as JanusReplyError {
            throw error
        } catch let error as DecodingError {
            throw JanusReplyError(error)
        } catch {
            throw .notJSON
        }
    }

    /// What this message means for the request `command` waiting on its transaction.
    public func outcome(for command: JanusCommand) -> Outcome {
        switch self {
        case .ack:
            return command.isAnsweredByAck ? .answered(self) : .waiting
        case .error(_, let refusal):
            return .failed(.refused(code: refusal.code, reason: refusal.reason))
        case .success(_, .plugin(let data)), .event(_, _, let data, _):
            if let refusal = data.refusal { return .failed(.pluginRefused(code: refusal.code, reason: refusal.reason)) }
            return .answered(self)
        default:
            return .answered(self)
        }
    }

    public enum Outcome: Sendable, Equatable {
        /// An `ack` of a request whose answer comes later.
        case waiting
        case answered(JanusReply)
        case failed(JanusError)
    }

    /// The id `create` or `attach` made.
    public func createdID() throws(JanusError) -> UInt64 {
        guard case .success(_, .created(let id)) = self else { throw .unexpectedReply("no id in the answer") }
        return id
    }

    /// The plugin's answer to a message (right away or as an event) and the SDP beside it.
    public func pluginAnswer() throws(JanusError) -> (data: VideoRoomResponse, jsep: JSEP?) {
        switch self {
        case .success(_, .plugin(let data)): return (data, nil)
        case .event(_, _, let data, let jsep): return (data, jsep)
        default: throw .unexpectedReply("no plugin data in the answer")
        }
    }
}

// MARK: The frame as it comes

extension JanusReply {
    /// Every field any kind of message may carry; `reply()` checks that the kind's own are there.
    private struct Wire: Decodable {
        var janus: String
        var transaction: String?
        var sender: JanusID?
        var session_id: JanusID?
        var data: CreatedData?
        var plugindata: PluginData?
        var jsep: JSEP?
        var error: JanusRefusal?
        var reason: String?
        var type: String?
        var receiving: Bool?
        var uplink: Bool?
        var lost: Int?
        var name: String?
        var version_string: String?

        struct CreatedData: Decodable { var id: JanusID }

        struct PluginData: Decodable {
            var plugin: String
            var data: VideoRoomResponse

            private enum CodingKeys: String, CodingKey { case plugin, data }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                plugin = try container.decode(String.self, forKey: .plugin)
                guard plugin == JanusCommand.Plugin.videoRoom.rawValue else { throw JanusReplyError.unexpectedPlugin(plugin) }
                data = try container.decode(VideoRoomResponse.self, forKey: .data)
            }
        }

        func reply() throws(JanusReplyError) -> JanusReply {
            func required<T>(_ value: T?, _ field: String) throws(JanusReplyError) -> T {
                guard let value else { throw .missingField(path: field) }
                return value
            }
            switch janus {
            case "ack":
                return .ack(transaction: try required(transaction, "transaction"))
            case "success":
                let transaction = try required(transaction, "transaction")
                if let data { return .success(transaction: transaction, result: .created(id: data.id.value)) }
                if let plugindata { return .success(transaction: transaction, result: .plugin(plugindata.data)) }
                return .success(transaction: transaction, result: .done)
            case "error":
                return .error(transaction: transaction, try required(error, "error"))
            case "event":
                return .event(transaction: transaction, sender: try required(sender, "sender").value,
                              data: try required(plugindata, "plugindata").data, jsep: jsep)
            case "webrtcup":
                return .webrtcUp(sender: try required(sender, "sender").value)
            case "hangup":
                return .hangup(sender: try required(sender, "sender").value, reason: reason)
            case "media":
                return .media(sender: try required(sender, "sender").value, type: try required(type, "type"),
                              receiving: try required(receiving, "receiving"))
            case "slowlink":
                return .slowLink(sender: try required(sender, "sender").value, uplink: try required(uplink, "uplink"), lost: lost)
            case "detached":
                return .detached(sender: try required(sender, "sender").value)
            case "timeout":
                return .timeout(session: try required(session_id, "session_id").value)
            case "server_info":
                return .serverInfo(transaction: try required(transaction, "transaction"), name: name, version: version_string)
            default:
                throw .unknownKind(janus)
            }
        }
    }
}

extension JanusReply {
    /// The transaction of a frame that did not decode, when at least that can be read: the
    /// request waiting on it then fails at once with the reason instead of timing out.
    public static func transaction(ofUnreadable text: String) -> String? {
        struct TransactionOnly: Decodable { var transaction: String }
        guard (try? FrameGuard.check(text, limits: .janus)) != nil else { return nil }
        return try? JanusCoding.decoder().decode(TransactionOnly.self, from: Data(text.utf8)).transaction
    }
}
