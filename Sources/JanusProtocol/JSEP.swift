/// An SDP offer or answer as Janus carries it beside a message (`"jsep": {"type","sdp"}`).
public struct JSEP: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case offer, answer
    }

    public var type: Kind
    public var sdp: String

    public init(type: Kind, sdp: String) {
        self.type = type
        self.sdp = sdp
    }

    public static func offer(_ sdp: String) -> JSEP { JSEP(type: .offer, sdp: sdp) }
    public static func answer(_ sdp: String) -> JSEP { JSEP(type: .answer, sdp: sdp) }
}
