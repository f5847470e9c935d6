/// The kind of call, which decides what each role may do (see `CallPermissions` on the server).
public enum CallType: String, Codable, Sendable, CaseIterable {
    /// A video call: every member may send audio, video and share the screen.
    case `default`
    /// A room where hosts speak and users listen; nobody sends video.
    case audioRoom = "audio_room"
}
