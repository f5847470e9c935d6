/// One trickled ICE candidate (`{"sdpMLineIndex","candidate"}`), or the end of them
/// (`{"completed": true}`), as the `candidate` of a `trickle` request.
public enum JanusCandidate: Encodable, Sendable, Equatable {
    case candidate(mlineIndex: Int, sdp: String)
    case completed

    private enum Key: String, CodingKey {
        case sdpMLineIndex, candidate, completed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .candidate(let index, let sdp):
            try container.encode(index, forKey: .sdpMLineIndex)
            try container.encode(sdp, forKey: .candidate)
        case .completed:
            try container.encode(true, forKey: .completed)
        }
    }
}
