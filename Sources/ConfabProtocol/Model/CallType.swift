/// The kind of call, which decides what each role may do (see `CallPermissions` on the server).
public enum CallType: String, Codable, Sendable, CaseIterable {
    /// A video call: every member may send audio, video and share the screen.
    case `default`
    /// A room where hosts speak and users listen; nobody sends video.
    case audioRoom = "audio_room"

    /// Whether anyone at all, whatever their role, may send this media in a call of this type:
    /// nobody's camera or screen goes out in an audio room. What one member may send is the
    /// coordinator's to say (its table, `CallPermissions`, told in the join's answer); this
    /// holds before it has said, in the lobby. Capabilities that are not media are not its to
    /// decide (true).
    public func allowsAnyone(_ capability: OwnCapability) -> Bool {
        switch (self, capability) {
        case (.audioRoom, .sendVideo), (.audioRoom, .screenshare): false
        default: true
        }
    }
}
