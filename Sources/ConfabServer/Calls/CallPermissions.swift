import ConfabProtocol

/// Which capabilities each role has in each call type — the server's whole permission table.
///
/// Modelled on stream-video's defaults: in a `default` call every member can talk and be seen,
/// hosts and admins moderate; in an `audio_room` users only listen and nobody sends video.
enum CallPermissions {
    private static let everyone: Set<OwnCapability> = [.createCall, .readCall, .joinCall]
    private static let moderation: Set<OwnCapability> = [
        .joinBackstage, .ringCall, .muteUsers, .blockUsers, .kickUser, .pinForEveryone, .endCall, .updateCall,
        .updateCallMember, .removeCallMember, .startRecording, .stopRecording, .goLive, .stopLive,
        .startBroadcasting, .stopBroadcasting,
    ]

    static func capabilities(type: CallType, role: CallRole) -> Set<OwnCapability> {
        switch (type, role) {
        case (.default, .user):
            everyone.union([.sendAudio, .sendVideo, .screenshare])
        case (.default, .host), (.default, .admin):
            everyone.union([.sendAudio, .sendVideo, .screenshare]).union(moderation)
        case (.audioRoom, .user):
            everyone
        case (.audioRoom, .host), (.audioRoom, .admin):
            everyone.union([.sendAudio]).union(moderation)
        }
    }

    /// What `userId` may do in `call`: a blocked user may do nothing, someone who is not a
    /// member counts as a `user` (anyone can join a call by id from the lobby).
    static func capabilities(of userId: String, in call: StoredCall) -> Set<OwnCapability> {
        if call.blockedUsers.contains(userId) { return [] }
        return capabilities(type: call.cid.type, role: call.role(of: userId) ?? .user)
    }
}
