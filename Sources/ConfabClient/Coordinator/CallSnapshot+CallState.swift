import ConfabCore
import ConfabProtocol
import FoundationEssentials

extension CallSnapshot {
    /// The app's view of a call from the coordinator's full call state.
    init(_ state: CallState) {
        self.init(
            id: state.cid,
            createdBy: state.createdBy,
            members: state.members.map { Member(user: User(id: $0.userId), role: $0.role.rawValue) },
            participants: state.session.participants.map(ConfabCore.CallParticipant.init),
            blockedUserIDs: state.blockedUsers,
            ownCapabilities: Set(state.ownCapabilities),
            ringingMemberIDs: state.session.ringing?.memberIds ?? [],
            rejectedBy: state.session.rejectedBy.mapValues(RejectionReason.init),
            isEnded: state.endedAt != nil)
        isRecording = state.recording
        recordingState = state.recordingState
        recordings = state.recordings.map {
            CallRecordingInfo(participant: $0.participant, start: $0.start, duration: $0.duration, size: $0.size, downloadURL: $0.downloadURL)
        }
        recordingErrors = state.recordingErrors
        backstage = state.backstage
        broadcasting = state.broadcasting
        hlsPlaylistUrl = state.hlsPlaylistUrl
        linkSecret = state.linkSecret
        askToJoin = state.askToJoin
        knocks = state.knocks
    }
}

extension MediaEndpointInfo {
    /// Where to send media, from a join answer; nil for a room number no Janus could have
    /// (0 asks Janus to pick one; a negative one no longer decodes at all).
    init?(_ endpoint: MediaEndpoint) {
        guard endpoint.room != 0, !endpoint.janusURL.isEmpty else { return nil }
        self.init(url: endpoint.janusURL, room: endpoint.room, token: endpoint.token)
    }
}

extension ConfabCore.CallParticipant {
    /// A participant as the app shows it. The coordinator knows user ids only; names come later.
    init(_ participant: WireParticipant) {
        self.init(
            user: User(id: participant.userId), sessionID: participant.sessionId, role: participant.role.rawValue,
            joinedAt: participant.joinedAt, isPinned: participant.pinnedAt != nil, raisedHand: participant.raisedHand,
            microphoneOn: participant.microphoneOn, cameraOn: participant.cameraOn)
    }
}

extension RejectionReason {
    init(_ reason: RejectReason) {
        switch reason {
        case .decline: self = .decline
        case .busy: self = .busy
        case .cancel: self = .cancel
        case .timeout: self = .timeout
        }
    }
}

extension RejectReason {
    init(_ reason: RejectionReason) {
        switch reason {
        case .decline: self = .decline
        case .busy: self = .busy
        case .cancel: self = .cancel
        case .timeout: self = .timeout
        }
    }
}
