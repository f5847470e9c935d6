/// Why a ring was rejected (stream-video's `RejectionReasonProvider` reasons).
public enum RejectReason: String, Codable, Sendable, CaseIterable {
    /// The callee said no.
    case decline
    /// The callee is in another call; the server sends this on their behalf.
    case busy
    /// The caller hung up before anyone answered.
    case cancel
    /// The callee's incoming-call timer ran out.
    case timeout
}
