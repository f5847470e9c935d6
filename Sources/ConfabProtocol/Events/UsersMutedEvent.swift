/// `call.user_muted`: the listed users' devices should turn off the named tracks.
public struct UsersMutedEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userIds: [String]
    public var byUserId: String
    public var audio: Bool
    public var video: Bool
    public var screenshare: Bool

    public init(cid: CallID, userIds: [String], byUserId: String, audio: Bool, video: Bool, screenshare: Bool) {
        self.cid = cid
        self.userIds = userIds
        self.byUserId = byUserId
        self.audio = audio
        self.video = video
        self.screenshare = screenshare
    }
}
