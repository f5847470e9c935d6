import FoundationEssentials

/// Everything about a call as seen by one user (`ownCapabilities` depends on who asks).
public struct CallState: Codable, Sendable, Hashable {
    public var cid: CallID
    public var createdBy: String
    public var createdAt: Date
    public var updatedAt: Date
    public var startsAt: Date?
    public var endedAt: Date?
    public var backstage: Bool
    public var broadcasting: Bool
    public var recording: Bool
    public var recordingState: RecordingState
    /// Finished recordings, one playable file per participant, newest last.
    public var recordings: [CallRecording]
    /// Why a recording could not be made or converted; kept so nobody loses one silently.
    public var recordingErrors: [String]
    /// The HLS playlist while `broadcasting`: this reader's own path, served only while they
    /// may read the call (a blocked reader's link stops working).
    public var hlsPlaylistUrl: String?
    /// The secret of the call's link: whoever presents it (`linkSecret` on getCall, joinCall or
    /// getOrCreateCall) may read and join the call without being a member. Only sent to those
    /// who may read the call.
    public var linkSecret: String?
    /// The call has a waiting room: people who are not members knock and wait for a host.
    public var askToJoin: Bool
    /// Who is waiting to be let in, first knock first; only for those who may admit them.
    public var knocks: [CallKnock]
    public var members: [CallMember]
    public var blockedUsers: [String]
    public var custom: [String: JSONValue]
    public var session: CallSession
    public var ownCapabilities: [OwnCapability]

    public init(
        cid: CallID, createdBy: String, createdAt: Date, updatedAt: Date, startsAt: Date?, endedAt: Date?,
        backstage: Bool, broadcasting: Bool, recording: Bool, members: [CallMember], blockedUsers: [String],
        custom: [String: JSONValue], session: CallSession, ownCapabilities: [OwnCapability],
        recordingState: RecordingState? = nil, recordings: [CallRecording] = [], recordingErrors: [String] = [],
        hlsPlaylistUrl: String? = nil, linkSecret: String? = nil, askToJoin: Bool = false, knocks: [CallKnock] = []
    ) {
        self.cid = cid
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.startsAt = startsAt
        self.endedAt = endedAt
        self.backstage = backstage
        self.broadcasting = broadcasting
        self.recording = recording
        self.recordingState = recordingState ?? (recording ? .recording : .noRecording)
        self.recordings = recordings
        self.recordingErrors = recordingErrors
        self.hlsPlaylistUrl = hlsPlaylistUrl
        self.linkSecret = linkSecret
        self.askToJoin = askToJoin
        self.knocks = knocks
        self.members = members
        self.blockedUsers = blockedUsers
        self.custom = custom
        self.session = session
        self.ownCapabilities = ownCapabilities
    }

    private enum CodingKeys: String, CodingKey {
        case cid, createdBy, createdAt, updatedAt, startsAt, endedAt, backstage, broadcasting, recording
        case recordingState, recordings, recordingErrors, hlsPlaylistUrl, linkSecret, askToJoin, knocks
        case members, blockedUsers, custom, session, ownCapabilities
    }

    /// The recording, broadcast, link and waiting-room fields came later: a state without them reads as before.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            cid: try c.decode(CallID.self, forKey: .cid), createdBy: try c.decode(String.self, forKey: .createdBy),
            createdAt: try c.decode(Date.self, forKey: .createdAt), updatedAt: try c.decode(Date.self, forKey: .updatedAt),
            startsAt: try c.decodeIfPresent(Date.self, forKey: .startsAt), endedAt: try c.decodeIfPresent(Date.self, forKey: .endedAt),
            backstage: try c.decode(Bool.self, forKey: .backstage), broadcasting: try c.decode(Bool.self, forKey: .broadcasting),
            recording: try c.decode(Bool.self, forKey: .recording), members: try c.decode([CallMember].self, forKey: .members),
            blockedUsers: try c.decode([String].self, forKey: .blockedUsers),
            custom: try c.decode([String: JSONValue].self, forKey: .custom), session: try c.decode(CallSession.self, forKey: .session),
            ownCapabilities: try c.decode([OwnCapability].self, forKey: .ownCapabilities),
            recordingState: try c.decodeIfPresent(RecordingState.self, forKey: .recordingState),
            recordings: try c.decodeIfPresent([CallRecording].self, forKey: .recordings) ?? [],
            recordingErrors: try c.decodeIfPresent([String].self, forKey: .recordingErrors) ?? [],
            hlsPlaylistUrl: try c.decodeIfPresent(String.self, forKey: .hlsPlaylistUrl),
            linkSecret: try c.decodeIfPresent(String.self, forKey: .linkSecret),
            askToJoin: try c.decodeIfPresent(Bool.self, forKey: .askToJoin) ?? false,
            knocks: try c.decodeIfPresent([CallKnock].self, forKey: .knocks) ?? [])
    }
}
