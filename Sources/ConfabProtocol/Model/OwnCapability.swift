/// Something the current user may do in a call; the server refuses requests that need a
/// capability the user lacks (error `forbidden`).
public enum OwnCapability: String, Codable, Sendable, CaseIterable, Comparable {
    case createCall, readCall, joinCall, joinBackstage, ringCall
    case sendAudio, sendVideo, screenshare
    case muteUsers, blockUsers, kickUser, pinForEveryone
    case endCall, updateCall, updateCallMember, removeCallMember
    case startRecording, stopRecording
    case goLive, stopLive, startBroadcasting, stopBroadcasting

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
