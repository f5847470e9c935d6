import ConfabProtocol

/// Which capabilities each role has in each call type — the server's whole permission table.
///
/// Modelled on stream-video's defaults: in a `default` call every member can talk and be seen,
/// hosts and admins moderate; in an `audio_room` users only listen and nobody sends video.
/// Unlike stream-video's defaults, a call is private (issue 16, item 8): only its members and
/// holders of its link get anything at all.
///
/// Talking beside the video (issue 18) is for everyone in a call, listeners of an audio room
/// too — chat and a raised hand are how a listener asks for the floor; letting people in from
/// the waiting room is moderation. Lowering someone else's hand needs `muteUsers` (floor
/// control, as Jitsi's moderators have it), not a capability of its own.
enum CallPermissions {
    private static let everyone: Set<OwnCapability> = [.createCall, .readCall, .joinCall, .sendChat, .sendReaction, .raiseHand]
    private static let moderation: Set<OwnCapability> = [
        .joinBackstage, .ringCall, .muteUsers, .blockUsers, .kickUser, .pinForEveryone, .endCall, .updateCall,
        .updateCallMember, .removeCallMember, .startRecording, .stopRecording, .goLive, .stopLive,
        .startBroadcasting, .stopBroadcasting, .admitParticipants,
    ]

    static func capabilities(type: CallType, role: CallRole) -> Set<OwnCapability> {
        switch (type, role) {
        case (.default, .user), (.default, .speaker):
            everyone.union([.sendAudio, .sendVideo, .screenshare])
        case (.default, .host), (.default, .admin):
            everyone.union([.sendAudio, .sendVideo, .screenshare]).union(moderation)
        case (.audioRoom, .user):
            everyone
        case (.audioRoom, .speaker):
            everyone.union([.sendAudio])
        case (.audioRoom, .host), (.audioRoom, .admin):
            everyone.union([.sendAudio]).union(moderation)
        }
    }

    /// What someone with `access` may do in a call of `type`: a link holder counts as a `user`
    /// (once let in, when the call asks to join); someone waiting or turned away gets nothing;
    /// a stranger gets nothing — or, on a server run with `--open-calls` (local development),
    /// counts as a `user` as every non-member did before calls were private.
    static func capabilities(of access: CallAccess, in type: CallType, openCalls: Bool) -> Set<OwnCapability> {
        switch access {
        case .blocked, .waiting, .denied: []
        case .member(let role): capabilities(type: type, role: role)
        case .linkHolder: capabilities(type: type, role: .user)
        case .stranger: openCalls ? capabilities(type: type, role: .user) : []
        }
    }
}
