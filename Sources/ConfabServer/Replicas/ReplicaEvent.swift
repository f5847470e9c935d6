import ConfabProtocol

/// What one coordinator tells the others that share its PostgreSQL (see `ReplicaBus`).
///
/// Each replica owns the participants and rings started on it; the others keep a copy, so that
/// a call's state, busy checks and ring answers are the same whichever replica a client is on,
/// and every event a replica sends to its own clients reaches the others' clients too.
enum ReplicaEvent: Codable, Sendable, Equatable {
    /// `callerId`'s ring in `cid` (of `memberIds`) now rings `targets` too: a new ring, or more
    /// people rung into one in progress. `timeout`: seconds until it is missed.
    case ring(cid: CallID, callerId: String, memberIds: [String], targets: [String], video: Bool, timeout: Double?)
    /// Someone connected to the sending replica answered a ring that another replica started.
    case ringAnswered(cid: CallID, userId: String, answer: RingAnswer)
    /// The ring in `cid` is over (answered by all, cancelled, missed, the call ended).
    case ringOver(cid: CallID)
    /// The call's durable state (members, blocked users, link, flags, end) changed in the database.
    case callSaved(cid: CallID)
    /// The sender's view of participants in `cid` changed: `present` are as they are now (joined,
    /// pinned, a hand raised), `gone` left. A participant may be another replica's (a host here
    /// pinned someone connected there): its owner takes the change too.
    case participants(cid: CallID, present: [CallParticipant], gone: [String])
    /// An event the sender sent to its own clients, for the receiver's clients among `recipients`.
    case relayed(RelayedEvent)
    /// The sender is alive (every `ReplicaLiveness.heartbeat`); a replica not heard from for
    /// `ReplicaLiveness.deadAfter` is taken for dead and its participants leave.
    case alive
    /// The sender has just started: the others tell it their participants again.
    case hello
}

/// An event as a replica hands it to the others: they deliver it to their own connections among
/// `recipients`, with the call state inside rebuilt for each recipient when `carriesCall` (the
/// state holds the recipient's own capabilities, and the receiver's view of the session).
struct RelayedEvent: Codable, Sendable, Equatable {
    var cid: CallID
    var recipients: Recipients
    var envelope: EventEnvelope
    var carriesCall: Bool

    static func == (lhs: RelayedEvent, rhs: RelayedEvent) -> Bool {
        lhs.cid == rhs.cid && lhs.recipients == rhs.recipients && lhs.envelope.event == rhs.envelope.event
            && lhs.carriesCall == rhs.carriesCall
    }
}

/// A `ReplicaEvent` as it travels: with the replica it came from, so that one ignores its own.
struct ReplicaMessage: Codable, Sendable {
    var origin: String
    var event: ReplicaEvent
}
