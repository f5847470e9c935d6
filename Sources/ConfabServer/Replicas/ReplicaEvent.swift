import ConfabProtocol

/// What one coordinator tells the others that share its PostgreSQL (see `ReplicaBus`).
///
/// Only rings so far (issue 17, step 3, a first part): a ring started on one replica reaches the
/// callee's devices connected to another. Answers, joins, leaves, mutes and the rest do not
/// cross replicas yet.
enum ReplicaEvent: Codable, Sendable, Equatable {
    /// `callerId`'s ring in `cid` (of `memberIds`) now rings `targets` too: a new ring, or more
    /// people rung into one in progress.
    case ring(cid: CallID, callerId: String, memberIds: [String], targets: [String], video: Bool)
}

/// A `ReplicaEvent` as it travels: with the replica it came from, so that one ignores its own.
struct ReplicaMessage: Codable, Sendable {
    var origin: String
    var event: ReplicaEvent
}
