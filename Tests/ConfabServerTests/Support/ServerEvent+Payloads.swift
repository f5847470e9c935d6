import ConfabProtocol

/// Payload accessors so tests read `event.ring?.callerId` rather than a `guard case` each time.
extension ServerEvent {
    var changed: CallChangedEvent? {
        switch self {
        case .callCreated(let e), .callUpdated(let e), .recordingStarted(let e), .recordingStopped(let e): e
        default: nil
        }
    }
    var ring: CallRingEvent? { if case .callRing(let e) = self { e } else { nil } }
    var accepted: CallAcceptedEvent? { if case .callAccepted(let e) = self { e } else { nil } }
    var rejected: CallRejectedEvent? { if case .callRejected(let e) = self { e } else { nil } }
    var missed: CallMissedEvent? { if case .callMissed(let e) = self { e } else { nil } }
    var ended: CallEndedEvent? { if case .callEnded(let e) = self { e } else { nil } }
    var joined: ParticipantJoinedEvent? { if case .participantJoined(let e) = self { e } else { nil } }
    var left: ParticipantLeftEvent? { if case .participantLeft(let e) = self { e } else { nil } }
    var membersAdded: MembersAddedEvent? { if case .membersAdded(let e) = self { e } else { nil } }
    var membersRemoved: MembersRemovedEvent? { if case .membersRemoved(let e) = self { e } else { nil } }
    var block: UserBlockEvent? {
        switch self {
        case .userBlocked(let e), .userUnblocked(let e): e
        default: nil
        }
    }
    var kicked: UserKickedEvent? { if case .userKicked(let e) = self { e } else { nil } }
    var muted: UsersMutedEvent? { if case .usersMuted(let e) = self { e } else { nil } }
    var pin: PinEvent? {
        switch self {
        case .pinned(let e), .unpinned(let e): e
        default: nil
        }
    }
}

/// Issue 18's events.
extension ServerEvent {
    var chat: ChatMessage? { if case .chatMessage(let e) = self { e.message } else { nil } }
    var reaction: ReactionEvent? { if case .reaction(let e) = self { e } else { nil } }
    var hand: HandEvent? {
        switch self {
        case .handRaised(let e), .handLowered(let e): e
        default: nil
        }
    }
    var knocked: ParticipantKnockedEvent? { if case .participantKnocked(let e) = self { e } else { nil } }
    var knockResolved: KnockResolvedEvent? { if case .knockResolved(let e) = self { e } else { nil } }
    var joinAnswer: JoinAnswerEvent? {
        switch self {
        case .joinAdmitted(let e), .joinDenied(let e): e
        default: nil
        }
    }
}

/// How large each device shows the others' cameras.
extension ServerEvent {
    var videoViews: VideoViewsEvent? { if case .videoViewsUpdated(let e) = self { e } else { nil } }
    var mediaState: MediaStateEvent? { if case .mediaStateChanged(let e) = self { e } else { nil } }
}
