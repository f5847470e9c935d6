import FoundationEssentials

/// One participant's recording of a call, converted to a playable file after recording stopped.
public struct CallRecording: Codable, Sendable, Hashable {
    /// The user whose media this is.
    public var participant: String
    public var start: Date
    /// Seconds of media in the file.
    public var duration: Double
    /// Bytes.
    public var size: Int
    /// Served by confab-server with the same authentication as the WebSocket: add `?token=…`
    /// (or `?user=…` on a dev-auth server), or send `Authorization: Bearer …`.
    public var downloadURL: String

    public init(participant: String, start: Date, duration: Double, size: Int, downloadURL: String) {
        self.participant = participant
        self.start = start
        self.duration = duration
        self.size = size
        self.downloadURL = downloadURL
    }
}
