/// `call.created`, `call.updated`, `call.recording_started`, `call.recording_stopped`: the call as it now is.
public struct CallChangedEvent: Codable, Sendable, Hashable {
    public var call: CallState
    public init(call: CallState) { self.call = call }
}
