/// Something the current user may do in a call; the server refuses requests that need a
/// capability the user lacks (error `forbidden`).
public enum OwnCapability: String, Codable, Sendable, CaseIterable, Comparable {
    case createCall, readCall, joinCall, joinBackstage, ringCall
    case sendAudio, sendVideo, screenshare
    case muteUsers, blockUsers, kickUser, pinForEveryone
    case endCall, updateCall, updateCallMember, removeCallMember
    case startRecording, stopRecording
    case goLive, stopLive, startBroadcasting, stopBroadcasting
    /// Talking beside the video (issue 18): chat, reactions, a raised hand; and, for hosts,
    /// letting people in from the waiting room of a call that asks to join.
    case sendChat, sendReaction, raiseHand, admitParticipants

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
