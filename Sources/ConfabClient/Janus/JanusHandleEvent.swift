import JanusProtocol

/// Something Janus told a handle without being asked (new publishers, talking, `webrtcup`,
/// `hangup` …), or the end of its session.
public enum JanusHandleEvent: Sendable {
    case reply(JanusReply)
    /// The connection to Janus ended: the handle is gone with its session.
    case sessionClosed

    /// The VideoRoom's data, for plugin events.
    public var videoRoom: VideoRoomResponse? {
        if case .reply(.event(_, _, let data, _)) = self { return data }
        return nil
    }
}
