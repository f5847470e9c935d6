/// How a VideoRoom `create` sets up the room; nil leaves Janus's default. Field names are
/// Janus's (janus_videoroom.c).
public struct VideoRoomOptions: Sendable, Equatable, Encodable {
    public var description: String?
    /// Needed afterwards to edit or destroy the room.
    public var secret: String?
    /// Needed by `create` when the plugin has an `admin_key`.
    public var adminKey: String?
    /// Left out of `list` answers.
    public var isPrivate: Bool?
    /// Saved into the plugin's configuration file (survives a Janus restart).
    public var permanent: Bool?
    /// How many may publish at once.
    public var publishers: Int?
    public var audioCodec: String?
    public var videoCodec: String?
    /// Speaking indicators: read the audio-level header extension, send `talking` events, after
    /// `audioActivePackets` packets averaging above -`audioLevelAverage` dBov.
    public var audioLevelExtension: Bool?
    public var audioLevelEvent: Bool?
    public var audioActivePackets: Int?
    public var audioLevelAverage: Int?
    /// Tokens a publisher must give to join; Janus checks them only for publishers.
    public var allowed: [String]?
    /// Subscribers must name a publisher's `private_id` in the room.
    public var requirePrivateID: Bool?
    /// Tell participants when someone joins, not only when they publish.
    public var notifyJoining: Bool?

    public init(description: String? = nil, secret: String? = nil, adminKey: String? = nil, isPrivate: Bool? = nil,
                permanent: Bool? = nil, publishers: Int? = nil, audioCodec: String? = nil, videoCodec: String? = nil,
                audioLevelExtension: Bool? = nil, audioLevelEvent: Bool? = nil, audioActivePackets: Int? = nil,
                audioLevelAverage: Int? = nil, allowed: [String]? = nil, requirePrivateID: Bool? = nil, notifyJoining: Bool? = nil) {
        self.description = description
        self.secret = secret
        self.adminKey = adminKey
        self.isPrivate = isPrivate
        self.permanent = permanent
        self.publishers = publishers
        self.audioCodec = audioCodec
        self.videoCodec = videoCodec
        self.audioLevelExtension = audioLevelExtension
        self.audioLevelEvent = audioLevelEvent
        self.audioActivePackets = audioActivePackets
        self.audioLevelAverage = audioLevelAverage
        self.allowed = allowed
        self.requirePrivateID = requirePrivateID
        self.notifyJoining = notifyJoining
    }

    private enum CodingKeys: String, CodingKey {
        case description, secret, permanent, publishers, allowed
        case adminKey = "admin_key"
        case isPrivate = "is_private"
        case audioCodec = "audiocodec"
        case videoCodec = "videocodec"
        case audioLevelExtension = "audiolevel_ext"
        case audioLevelEvent = "audiolevel_event"
        case audioActivePackets = "audio_active_packets"
        case audioLevelAverage = "audio_level_average"
        case requirePrivateID = "require_pvtid"
        case notifyJoining = "notify_joining"
    }
}
