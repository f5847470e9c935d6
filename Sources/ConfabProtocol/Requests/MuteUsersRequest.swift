/// Asks participants' devices to mute (needs `muteUsers`). The server relays `call.user_muted`;
/// each device mutes itself. `userIds` nil or `muteAllUsers` true mutes everyone else.
public struct MuteUsersRequest: ConfabRequest, Hashable {
    public static let type = RequestType.muteUsers
    public typealias Response = EmptyResponse

    public var cid: CallID
    public var userIds: [String]?
    public var muteAllUsers: Bool?
    public var audio: Bool?
    public var video: Bool?
    public var screenshare: Bool?

    public init(
        cid: CallID, userIds: [String]? = nil, muteAllUsers: Bool? = nil, audio: Bool? = nil, video: Bool? = nil,
        screenshare: Bool? = nil
    ) {
        self.cid = cid
        self.userIds = userIds
        self.muteAllUsers = muteAllUsers
        self.audio = audio
        self.video = video
        self.screenshare = screenshare
    }
}
