import ConfabProtocol

/// What one coordinator tells the others that share its PostgreSQL (see `ReplicaBus`).
///
/// A first part of issue 17's replicas: a ring started on one replica reaches the callee's
/// devices connected to another, and a call saved on one is read afresh by the others. Answers,
/// joins, leaves, mutes and the other events do not cross replicas yet.
enum ReplicaEvent: Codable, Sendable, Equatable {
    /// `callerId`'s ring in `cid` (of `memberIds`) now rings `targets` too: a new ring, or more
    /// people rung into one in progress.
    case ring(cid: CallID, callerId: String, memberIds: [String], targets: [String], video: Bool)
    /// The call's durable state (members, blocked users, link, flags, end) changed in the database.
    case callSaved(cid: CallID)
}

/// A `ReplicaEvent` as it travels: with the replica it came from, so that one ignores its own.
struct ReplicaMessage: Codable, Sendable {
    var origin: String
    var event: ReplicaEvent
}
