import ConfabCore
import ConfabProtocol
import FoundationEssentials

/// What a peer saw, written as JSON when it finishes. Times are ISO 8601 with milliseconds.
struct PeerReport: Encodable {
    struct StateChange: Encodable {
        /// A `CallingState` name: idle, outgoing, incoming, joining, inCall, reconnecting.
        let state: String
        let at: Date
    }

    struct Event: Encodable {
        /// The `CallServiceEvent` case: ringing, accepted, rejected, missed, ended, participantJoined, …
        let type: String
        let at: Date
        var call: String?
        var user: String?
        var reason: String?
        var byThisDevice: Bool?
        /// In `callUpdated`: the call's recording state, broadcast link and recordings then.
        var recordingState: String?
        var hlsPlaylistUrl: String?
        var recordings: Int?
    }

    struct Participant: Encodable {
        let user: String
        let session: String
        let joinedAt: Date
        var leftAt: Date?
    }

    /// The call as the coordinator last described it to this peer (in a response, `callUpdated`
    /// or `rejected`); participant events after that are in `events` and `participants`.
    struct CallSummary: Encodable {
        let cid: String
        let createdBy: String
        let members: [String]
        let participants: [String]
        let ringing: [String]
        let rejectedBy: [String: String]
        let ended: Bool

        init(_ call: CallSnapshot) {
            cid = call.id.description
            createdBy = call.createdBy
            members = call.members.map(\.user.id)
            participants = call.participants.map(\.user.id)
            ringing = call.ringingMemberIDs
            rejectedBy = call.rejectedBy.mapValues(\.rawValue)
            ended = call.isEnded
        }
    }

    /// A chat message (issue 18).
    struct ChatEntry: Encodable {
        let id: Int64
        let user: String
        let text: String
        let at: Date

        init(_ message: ChatMessage) {
            id = message.id
            user = message.userId
            text = message.text
            at = message.createdAt
        }
    }

    struct ReactionEntry: Encodable {
        let user: String
        let session: String
        let emoji: String
        let at: Date
    }

    struct HandEntry: Encodable {
        /// "raised" or "lowered".
        let type: String
        let user: String
        let by: String
        /// The hand's place in the raising order (raised hands only).
        var order: Int?
        let at: Date
    }

    let command: String
    let user: String
    let server: String
    var call: String?
    var connectionId: String?
    let startedAt = Date()
    var finishedAt: Date?
    var states: [StateChange] = []
    var events: [Event] = []
    var participants: [Participant] = []
    var lastCall: CallSummary?
    /// How it ended: "accepted by bob", "rejected: decline by bob", "missed", "ended: …", "cancelled", "joined".
    var outcome: String?
    var error: String?
    /// What the peer sent and received, with `--media test`.
    var media: MediaReport?
    /// Chat messages received as events while in the call (our own included), in order.
    var chat: [ChatEntry] = []
    /// The call's chat as read when joining (what a late joiner sees).
    var chatHistory: [ChatEntry]?
    /// Messages this peer sent, as the server stored them.
    var chatSent: [ChatEntry] = []
    var reactions: [ReactionEntry] = []
    var hands: [HandEntry] = []
    /// Users this peer (as a host) saw knock, and how each knock ended ("admitted", "denied",
    /// "withdrawn"; "waiting" while open).
    var knocks: [String: String] = [:]
    /// When the call asked to join: "waiting", then "admitted", "denied" or "timedOut"; nil
    /// when this peer never had to knock.
    var admission: String?
    /// Requests of the peer's own activity (chat, reactions, hands, admitting) that were refused.
    var activityErrors: [String] = []

    init(command: String, user: String, server: String, call: String?) {
        self.command = command
        self.user = user
        self.server = server
        self.call = call
    }

    mutating func record(_ event: CallServiceEvent, at now: Date = Date()) {
        switch event {
        case .ringing(let incoming):
            events.append(Event(type: "ringing", at: now, call: incoming.cid.description, user: incoming.caller.id))
        case .accepted(let cid, let userID, let byThisDevice):
            events.append(Event(type: "accepted", at: now, call: cid.description, user: userID, byThisDevice: byThisDevice))
        case .rejected(let cid, let userID, let reason, let byThisDevice, let call):
            events.append(Event(type: "rejected", at: now, call: cid.description, user: userID, reason: reason.rawValue, byThisDevice: byThisDevice))
            lastCall = CallSummary(call)
        case .missed(let cid):
            events.append(Event(type: "missed", at: now, call: cid.description))
        case .ringTurnedAway(let ring):
            events.append(Event(type: "ringTurnedAway", at: now, call: ring.cid.description, user: ring.caller.id))
        case .ended(let cid, let reason):
            events.append(Event(type: "ended", at: now, call: cid.description, reason: reason))
        case .participantJoined(let cid, let participant):
            events.append(Event(type: "participantJoined", at: now, call: cid.description, user: participant.user.id))
            saw(participant)
        case .participantLeft(let cid, let participant, let departure):
            events.append(Event(type: "participantLeft", at: now, call: cid.description, user: participant.user.id,
                                reason: departure == .connectionLost ? "connectionLost" : nil))
            left(session: participant.sessionID, at: now)
        case .callUpdated(let call):
            var event = Event(type: "callUpdated", at: now, call: call.id.description)
            event.recordingState = call.recordingState.rawValue
            event.hlsPlaylistUrl = call.hlsPlaylistUrl
            event.recordings = call.recordings.count
            events.append(event)
            lastCall = CallSummary(call)
        case .mutedByModerator(let cid, let moderator, let tracks):
            let names = [(ModeratedTracks.microphone, "microphone"), (.camera, "camera"), (.screenshare, "screenshare")]
            let what = names.filter { tracks.contains($0.0) }.map(\.1).joined(separator: ",")
            events.append(Event(type: "mutedByModerator", at: now, call: cid.description, user: moderator, reason: what))
        case .chatMessage, .reaction, .handChanged, .knocked, .knockResolved, .joinAnswered, .videoViews, .mediaStateChanged:
            // Recorded as they came from the coordinator (`chat`, `reactions`, `hands`, `knocks`,
            // `admission`), through the server-event observer, with more detail than these carry.
            break
        case .connectionLost:
            events.append(Event(type: "connectionLost", at: now))
        case .connectionRestored:
            events.append(Event(type: "connectionRestored", at: now))
        }
    }

    /// Issue 18's events, as the coordinator sent them.
    mutating func record(_ event: ServerEvent, at now: Date = Date()) {
        switch event {
        case .chatMessage(let e):
            chat.append(ChatEntry(e.message))
        case .reaction(let e):
            reactions.append(ReactionEntry(user: e.userId, session: e.sessionId, emoji: e.emoji.rawValue, at: now))
        case .handRaised(let e):
            hands.append(HandEntry(type: "raised", user: e.userId, by: e.byUserId, order: e.raisedHand?.order, at: now))
        case .handLowered(let e):
            hands.append(HandEntry(type: "lowered", user: e.userId, by: e.byUserId, at: now))
        case .participantKnocked(let e):
            knocks[e.knock.userId] = "waiting"
        case .knockResolved(let e):
            knocks[e.userId] = e.outcome.rawValue
        default:
            break
        }
    }

    /// A call state from a response: remembers it and the participants already there.
    mutating func record(_ call: CallSnapshot) {
        lastCall = CallSummary(call)
        for participant in call.participants { saw(participant) }
    }

    mutating func left(session: String, at now: Date = Date()) {
        for index in participants.indices where participants[index].session == session && participants[index].leftAt == nil {
            participants[index].leftAt = now
        }
    }

    private mutating func saw(_ participant: ConfabCore.CallParticipant) {
        guard !participants.contains(where: { $0.session == participant.sessionID }) else { return }
        participants.append(Participant(user: participant.user.id, session: participant.sessionID, joinedAt: participant.joinedAt))
    }

    func json() throws -> Data {
        let encoder = ConfabJSON.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        return try encoder.encode(self)
    }
}
