// # The confab coordinator protocol (version 1)
//
// One WebSocket per client at `ws://HOST:PORT/ws`, JSON text frames of at most 64 KiB.
// Every frame is one JSON object with a `kind`:
//
//     client → server   {"kind":"request","id":"7","type":"joinCall","payload":{"cid":"default:standup"}}
//     server → client   {"kind":"response","id":"7","type":"joinCall","payload":{...JoinCallResponse}}
//                       {"kind":"error","id":"7","type":"joinCall","error":{"code":"callNotFound","message":"..."}}
//                       {"kind":"event","type":"call.ring","payload":{...CallRingEvent}}
//
// - `id` is chosen by the client (any string); the response or error to that request carries it
//   back. An error to a frame that could not be read far enough to find an id has `"id": null`.
// - `type` of a request is a `RequestType`; its payload is the matching `ConfabRequest` struct and
//   the response payload is that struct's `Response`.
// - The first request must be `hello` (protocol version + token, or a bare user id when the server
//   runs with --dev-auth). Anything else before it gets `notAuthenticated`.
// - Events are pushed at any time, typed by `EventType` ("call.ring", "call.accepted", ...).
//   Events caused by a request are sent after that request's response.
//   A `health.check` event arrives every few seconds and doubles as a heartbeat.
// - Dates are ISO 8601 strings with milliseconds (`ConfabJSON` has the encoder and decoder).
// - Frames are checked before they are parsed (`FrameGuard`): over 64 KiB → `messageTooLarge`,
//   JSON nested deeper than 32 levels → `nestingTooDeep`. Clients check server frames the same way.
// - Errors never close the connection, with one exception: a text frame that is not UTF-8 closes
//   it with 1007 (RFC 6455). A client that stops answering WebSocket pings is dropped.
// - Plain HTTP `GET /health` answers `HealthStatus` (200) — cheap for round-trip measurements.
//
// Clients: encode `RequestEnvelope(id:payload:)`; read each incoming frame in one decode that
// looks at `kind` and reads the rest of the same container as `ResponseEnvelope<R.Response>`
// (R known by the id), `ErrorEnvelope` or `EventEnvelope` (ConfabClient's `InboundFrame`).
// `MessageHeader` is there for tools that only need to sort frames.

/// Which of the four message shapes a frame is.
public enum MessageKind: String, Codable, Sendable {
    case request, response, error, event
}

/// The fields common to every frame; decode this first to decide how to decode the rest.
public struct MessageHeader: Codable, Sendable, Equatable {
    public var kind: MessageKind
    public var id: String?
    /// A `RequestType` raw value for requests/responses/errors, an `EventType` raw value for events.
    public var type: String?

    public init(kind: MessageKind, id: String? = nil, type: String? = nil) {
        self.kind = kind
        self.id = id
        self.type = type
    }
}
