import ConfabProtocol
import Foundation

/// A request whose envelope was readable, with its payload decoded as the type says (or why
/// it could not be). Made in the connection's own task, not on the coordinator: a frame that is
/// slow to decode holds up only the client that sent it.
struct IncomingRequest: Sendable {
    var id: String
    var type: RequestType
    var payload: Result<any ConfabRequest, ProtocolError>
}

/// Turns frames into requests, and decoding failures into errors that name the problem.
enum RequestDecoder {
    /// Reads the frame — envelope and payload — in one typed decode. On failure, the error
    /// envelope to send back (with the id when known); a payload that does not decode is kept as
    /// the request's error, answered only once the request gets that far (a frame before sign-in
    /// is refused as such, whatever its payload).
    ///
    /// `FrameGuard` runs first, so no parser ever sees a frame that is too large or too deeply
    /// nested (Foundation's parser traps on some of those, which would take the server down).
    static func envelope(of frame: Data, limits: FrameGuard.Limits = .coordinator) -> Result<IncomingRequest, ErrorEnvelope> {
        do {
            try FrameGuard.check(frame, limits: limits)
        } catch {
            return .failure(ErrorEnvelope(id: nil, type: nil, error: error.protocolError))
        }
        let decoded: DecodedFrame
        do {
            // Requests with `custom` data have it looked up in the frame parsed once, on demand.
            decoded = try ConfabJSON.decoder(parsingOnDemand: frame).decode(DecodedFrame.self, from: frame)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            return .failure(ErrorEnvelope(id: nil, type: nil, error: ProtocolError(.invalidRequest, "frame must be a JSON object")))
        } catch {
            return .failure(ErrorEnvelope(id: nil, type: nil, error: ProtocolError(.malformedJSON, "frame is not valid JSON")))
        }
        let head = decoded.head
        guard case .valid(let id) = head.id else {
            return .failure(ErrorEnvelope(id: nil, type: nil, error: ProtocolError(.invalidRequest, "id: expected a string")))
        }
        func failure(_ code: ErrorCode, _ message: String, type: String? = nil) -> Result<IncomingRequest, ErrorEnvelope> {
            .failure(ErrorEnvelope(id: id, type: type, error: ProtocolError(code, message)))
        }
        guard case .valid(.some(MessageKind.request.rawValue)) = head.kind else {
            return failure(.invalidRequest, "kind: expected \"request\"")
        }
        guard let id else { return failure(.invalidRequest, "missing field 'id'") }
        let typeName: String
        switch head.type {
        case .valid(let name?): typeName = name
        case .valid(nil): return failure(.invalidRequest, "missing field 'type'")
        case .wrongType: return failure(.invalidRequest, "type: expected a string")
        }
        guard let type = RequestType(rawValue: typeName), let payload = decoded.payload else {
            return failure(.unknownRequestType, "unknown request type '\(typeName)'", type: typeName)
        }
        return .success(IncomingRequest(id: id, type: type, payload: payload))
    }

    /// The payload of a request of `type`, decoded from the frame's own container (the same
    /// decode that read the envelope), or why it could not be.
    fileprivate static func decodePayload<Keys: CodingKey>(_ type: RequestType, in container: KeyedDecodingContainer<Keys>,
                                                           forKey key: Keys) -> Result<any ConfabRequest, ProtocolError> {
        func decode<Request: ConfabRequest>(_: Request.Type) -> Result<any ConfabRequest, ProtocolError> {
            do {
                return .success(try container.decode(Request.self, forKey: key))
            } catch let error as DecodingError {
                return .failure(ProtocolError(.invalidRequest, describe(error)))
            } catch {
                return .failure(ProtocolError(.invalidRequest, "\(error)"))
            }
        }
        switch type {
        case .hello: return decode(HelloRequest.self)
        case .healthCheck: return decode(HealthCheckRequest.self)
        case .getOrCreateCall: return decode(GetOrCreateCallRequest.self)
        case .getCall: return decode(GetCallRequest.self)
        case .joinCall: return decode(JoinCallRequest.self)
        case .leaveCall: return decode(LeaveCallRequest.self)
        case .ringCall: return decode(RingCallRequest.self)
        case .acceptCall: return decode(AcceptCallRequest.self)
        case .rejectCall: return decode(RejectCallRequest.self)
        case .endCall: return decode(EndCallRequest.self)
        case .updateCall: return decode(UpdateCallRequest.self)
        case .addMembers: return decode(AddMembersRequest.self)
        case .removeMembers: return decode(RemoveMembersRequest.self)
        case .resetCallLink: return decode(ResetCallLinkRequest.self)
        case .blockUser: return decode(BlockUserRequest.self)
        case .unblockUser: return decode(UnblockUserRequest.self)
        case .muteUsers: return decode(MuteUsersRequest.self)
        case .kickUser: return decode(KickUserRequest.self)
        case .pinForEveryone: return decode(PinForEveryoneRequest.self)
        case .unpinForEveryone: return decode(UnpinForEveryoneRequest.self)
        case .startRecording: return decode(StartRecordingRequest.self)
        case .stopRecording: return decode(StopRecordingRequest.self)
        case .goLive: return decode(GoLiveRequest.self)
        case .stopLive: return decode(StopLiveRequest.self)
        case .startBroadcasting: return decode(StartBroadcastingRequest.self)
        case .stopBroadcasting: return decode(StopBroadcastingRequest.self)
        case .sendChatMessage: return decode(SendChatMessageRequest.self)
        case .getChatHistory: return decode(GetChatHistoryRequest.self)
        case .sendReaction: return decode(SendReactionRequest.self)
        case .updateVideoViews: return decode(UpdateVideoViewsRequest.self)
        case .updateMediaState: return decode(UpdateMediaStateRequest.self)
        case .raiseHand: return decode(RaiseHandRequest.self)
        case .lowerHand: return decode(LowerHandRequest.self)
        case .admitParticipant: return decode(AdmitParticipantRequest.self)
        case .denyParticipant: return decode(DenyParticipantRequest.self)
        }
    }

    /// The request's payload as `Request` (what its type said), or the decoding error.
    static func payload<Request: ConfabRequest>(_: Request.Type, of request: IncomingRequest) throws(ProtocolError) -> Request {
        let payload = try request.payload.get()
        guard let typed = payload as? Request else {
            throw ProtocolError(.internalError, "\(request.type.rawValue) was decoded as \(type(of: payload))")
        }
        return typed
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

/// A whole request frame from one typed decode: the envelope's fields, each recorded rather
/// than thrown when of the wrong type (so the answer can name it and still carry the id when
/// that was readable), and — once the type names a known request — the payload decoded as that
/// request from the same container, its failure recorded too. (Decoding the frame as a
/// `JSONValue` tree first cost several failed decodes per value; decoding the envelope and then
/// the whole frame again as `RequestEnvelope<Request>` read every frame twice.)
private struct DecodedFrame: Decodable {
    struct Head {
        var id: Field<String>
        var kind: Field<String>
        var type: Field<String>
    }

    enum Field<Value: Decodable>: Decodable {
        case valid(Value?)
        case wrongType

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .valid(nil)
            } else if let value = try? container.decode(Value.self) {
                self = .valid(value)
            } else {
                self = .wrongType
            }
        }
    }

    var head: Head
    /// Nil when the type is missing, not a string or not a known request.
    var payload: Result<any ConfabRequest, ProtocolError>?

    private enum CodingKeys: String, CodingKey { case id, kind, type, payload }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        head = Head(id: try container.decodeIfPresent(Field<String>.self, forKey: .id) ?? .valid(nil),
                    kind: try container.decodeIfPresent(Field<String>.self, forKey: .kind) ?? .valid(nil),
                    type: try container.decodeIfPresent(Field<String>.self, forKey: .type) ?? .valid(nil))
        if case .valid(let name?) = head.type, let type = RequestType(rawValue: name) {
            payload = RequestDecoder.decodePayload(type, in: container, forKey: .payload)
        }
    }
}
