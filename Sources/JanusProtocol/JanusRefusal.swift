/// A numbered refusal, as the Janus core (`error: {code, reason}`) and its plugins
/// (`error_code`, `error`) give them.
public struct JanusRefusal: Decodable, Sendable, Equatable {
    public var code: Int
    public var reason: String

    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }
}
