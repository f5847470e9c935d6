/// Every event the server pushes, with its payload.
public enum ServerEvent: Sendable, Hashable {
    case callCreated(CallChangedEvent)
    case callUpdated(CallChangedEvent)
    case callRing(CallRingEvent)
    case callAccepted(CallAcceptedEvent)
    case callRejected(CallRejectedEvent)
    case callMissed(CallMissedEvent)
    case callEnded(CallEndedEvent)
    case participantJoined(ParticipantJoinedEvent)
    case participantLeft(ParticipantLeftEvent)
    case membersAdded(MembersAddedEvent)
    case membersRemoved(MembersRemovedEvent)
    case userBlocked(UserBlockEvent)
    case userUnblocked(UserBlockEvent)
    case userKicked(UserKickedEvent)
    case usersMuted(UsersMutedEvent)
    case pinned(PinEvent)
    case unpinned(PinEvent)
    case recordingStarted(CallChangedEvent)
    case recordingStopped(CallChangedEvent)
    case healthCheck(HealthCheckEvent)
    case chatMessage(ChatMessageEvent)
    case reaction(ReactionEvent)
    case handRaised(HandEvent)
    case handLowered(HandEvent)
    case participantKnocked(ParticipantKnockedEvent)
    case knockResolved(KnockResolvedEvent)
    case joinAdmitted(JoinAnswerEvent)
    case joinDenied(JoinAnswerEvent)
    case videoViewsUpdated(VideoViewsEvent)
    case mediaStateChanged(MediaStateEvent)
    /// An event type this build does not know (sent by a newer server).
    case unknown(type: String)

    public var typeName: String {
        switch self {
        case .unknown(let type): type
        case .callCreated: EventType.callCreated.rawValue
        case .callUpdated: EventType.callUpdated.rawValue
        case .callRing: EventType.callRing.rawValue
        case .callAccepted: EventType.callAccepted.rawValue
        case .callRejected: EventType.callRejected.rawValue
        case .callMissed: EventType.callMissed.rawValue
        case .callEnded: EventType.callEnded.rawValue
        case .participantJoined: EventType.participantJoined.rawValue
        case .participantLeft: EventType.participantLeft.rawValue
        case .membersAdded: EventType.membersAdded.rawValue
        case .membersRemoved: EventType.membersRemoved.rawValue
        case .userBlocked: EventType.userBlocked.rawValue
        case .userUnblocked: EventType.userUnblocked.rawValue
        case .userKicked: EventType.userKicked.rawValue
        case .usersMuted: EventType.usersMuted.rawValue
        case .pinned: EventType.pinned.rawValue
        case .unpinned: EventType.unpinned.rawValue
        case .recordingStarted: EventType.recordingStarted.rawValue
        case .recordingStopped: EventType.recordingStopped.rawValue
        case .healthCheck: EventType.healthCheck.rawValue
        case .chatMessage: EventType.chatMessage.rawValue
        case .reaction: EventType.reaction.rawValue
        case .handRaised: EventType.handRaised.rawValue
        case .handLowered: EventType.handLowered.rawValue
        case .participantKnocked: EventType.participantKnocked.rawValue
        case .knockResolved: EventType.knockResolved.rawValue
        case .joinAdmitted: EventType.joinAdmitted.rawValue
        case .joinDenied: EventType.joinDenied.rawValue
        case .videoViewsUpdated: EventType.videoViewsUpdated.rawValue
        case .mediaStateChanged: EventType.mediaStateChanged.rawValue
        }
    }

    /// The call the event is about (nil for `health.check` and unknown events).
    public var cid: CallID? {
        switch self {
        case .callCreated(let e), .callUpdated(let e), .recordingStarted(let e), .recordingStopped(let e): e.call.cid
        case .callRing(let e): e.call.cid
        case .callAccepted(let e): e.call.cid
        case .callRejected(let e): e.call.cid
        case .callMissed(let e): e.call.cid
        case .callEnded(let e): e.call.cid
        case .participantJoined(let e): e.cid
        case .participantLeft(let e): e.cid
        case .membersAdded(let e): e.call.cid
        case .membersRemoved(let e): e.call.cid
        case .userBlocked(let e), .userUnblocked(let e): e.cid
        case .userKicked(let e): e.cid
        case .usersMuted(let e): e.cid
        case .pinned(let e), .unpinned(let e): e.cid
        case .chatMessage(let e): e.message.cid
        case .reaction(let e): e.cid
        case .handRaised(let e), .handLowered(let e): e.cid
        case .participantKnocked(let e): e.cid
        case .knockResolved(let e): e.cid
        case .joinAdmitted(let e), .joinDenied(let e): e.cid
        case .videoViewsUpdated(let e): e.cid
        case .mediaStateChanged(let e): e.cid
        case .healthCheck, .unknown: nil
        }
    }

    init<Key: CodingKey>(type: EventType, payloadIn container: KeyedDecodingContainer<Key>, forKey key: Key) throws {
        func payload<T: Decodable>(_: T.Type) throws -> T { try container.decode(T.self, forKey: key) }
        switch type {
        case .callCreated: self = .callCreated(try payload(CallChangedEvent.self))
        case .callUpdated: self = .callUpdated(try payload(CallChangedEvent.self))
        case .callRing: self = .callRing(try payload(CallRingEvent.self))
        case .callAccepted: self = .callAccepted(try payload(CallAcceptedEvent.self))
        case .callRejected: self = .callRejected(try payload(CallRejectedEvent.self))
        case .callMissed: self = .callMissed(try payload(CallMissedEvent.self))
        case .callEnded: self = .callEnded(try payload(CallEndedEvent.self))
        case .participantJoined: self = .participantJoined(try payload(ParticipantJoinedEvent.self))
        case .participantLeft: self = .participantLeft(try payload(ParticipantLeftEvent.self))
        case .membersAdded: self = .membersAdded(try payload(MembersAddedEvent.self))
        case .membersRemoved: self = .membersRemoved(try payload(MembersRemovedEvent.self))
        case .userBlocked: self = .userBlocked(try payload(UserBlockEvent.self))
        case .userUnblocked: self = .userUnblocked(try payload(UserBlockEvent.self))
        case .userKicked: self = .userKicked(try payload(UserKickedEvent.self))
        case .usersMuted: self = .usersMuted(try payload(UsersMutedEvent.self))
        case .pinned: self = .pinned(try payload(PinEvent.self))
        case .unpinned: self = .unpinned(try payload(PinEvent.self))
        case .recordingStarted: self = .recordingStarted(try payload(CallChangedEvent.self))
        case .recordingStopped: self = .recordingStopped(try payload(CallChangedEvent.self))
        case .healthCheck: self = .healthCheck(try payload(HealthCheckEvent.self))
        case .chatMessage: self = .chatMessage(try payload(ChatMessageEvent.self))
        case .reaction: self = .reaction(try payload(ReactionEvent.self))
        case .handRaised: self = .handRaised(try payload(HandEvent.self))
        case .handLowered: self = .handLowered(try payload(HandEvent.self))
        case .participantKnocked: self = .participantKnocked(try payload(ParticipantKnockedEvent.self))
        case .knockResolved: self = .knockResolved(try payload(KnockResolvedEvent.self))
        case .joinAdmitted: self = .joinAdmitted(try payload(JoinAnswerEvent.self))
        case .joinDenied: self = .joinDenied(try payload(JoinAnswerEvent.self))
        case .videoViewsUpdated: self = .videoViewsUpdated(try payload(VideoViewsEvent.self))
        case .mediaStateChanged: self = .mediaStateChanged(try payload(MediaStateEvent.self))
        }
    }

    func encodePayload<Key: CodingKey>(in container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        switch self {
        case .callCreated(let e), .callUpdated(let e), .recordingStarted(let e), .recordingStopped(let e):
            try container.encode(e, forKey: key)
        case .callRing(let e): try container.encode(e, forKey: key)
        case .callAccepted(let e): try container.encode(e, forKey: key)
        case .callRejected(let e): try container.encode(e, forKey: key)
        case .callMissed(let e): try container.encode(e, forKey: key)
        case .callEnded(let e): try container.encode(e, forKey: key)
        case .participantJoined(let e): try container.encode(e, forKey: key)
        case .participantLeft(let e): try container.encode(e, forKey: key)
        case .membersAdded(let e): try container.encode(e, forKey: key)
        case .membersRemoved(let e): try container.encode(e, forKey: key)
        case .userBlocked(let e), .userUnblocked(let e): try container.encode(e, forKey: key)
        case .userKicked(let e): try container.encode(e, forKey: key)
        case .usersMuted(let e): try container.encode(e, forKey: key)
        case .pinned(let e), .unpinned(let e): try container.encode(e, forKey: key)
        case .healthCheck(let e): try container.encode(e, forKey: key)
        case .chatMessage(let e): try container.encode(e, forKey: key)
        case .reaction(let e): try container.encode(e, forKey: key)
        case .handRaised(let e), .handLowered(let e): try container.encode(e, forKey: key)
        case .participantKnocked(let e): try container.encode(e, forKey: key)
        case .knockResolved(let e): try container.encode(e, forKey: key)
        case .joinAdmitted(let e), .joinDenied(let e): try container.encode(e, forKey: key)
        case .videoViewsUpdated(let e): try container.encode(e, forKey: key)
        case .mediaStateChanged(let e): try container.encode(e, forKey: key)
        case .unknown: try container.encode(EmptyResponse(), forKey: key)
        }
    }
}

/// The `type` of every event, as written on the wire.
public enum EventType: String, Codable, Sendable, CaseIterable {
    case callCreated = "call.created"
    case callUpdated = "call.updated"
    case callRing = "call.ring"
    case callAccepted = "call.accepted"
    case callRejected = "call.rejected"
    case callMissed = "call.missed"
    case callEnded = "call.ended"
    case participantJoined = "call.session_participant_joined"
    case participantLeft = "call.session_participant_left"
    case membersAdded = "call.member_added"
    case membersRemoved = "call.member_removed"
    case userBlocked = "call.blocked_user"
    case userUnblocked = "call.unblocked_user"
    case userKicked = "call.kicked_user"
    case usersMuted = "call.user_muted"
    case pinned = "call.pinned"
    case unpinned = "call.unpinned"
    case recordingStarted = "call.recording_started"
    case recordingStopped = "call.recording_stopped"
    case healthCheck = "health.check"
    case chatMessage = "call.chat_message"
    case reaction = "call.reaction"
    case handRaised = "call.hand_raised"
    case handLowered = "call.hand_lowered"
    case participantKnocked = "call.participant_knocked"
    case knockResolved = "call.knock_resolved"
    case joinAdmitted = "call.join_admitted"
    case joinDenied = "call.join_denied"
    case videoViewsUpdated = "call.video_views_updated"
    case mediaStateChanged = "call.media_state_changed"
}
