/// How large the call shows one participant's camera, from what every other device in it
/// said (`CameraAudience`): what its sender needs to send at most.
public enum ShownSize: Sendable, Equatable {
    /// Some device in the call has not said (an app that does not tell, one that just joined,
    /// a recording): send as large as the path allows.
    case unknown
    /// Every device said, and none shows it (hidden tiles, minimized calls).
    case hidden
    /// The largest view of it, in device pixels.
    case largest(VideoSize)
}
