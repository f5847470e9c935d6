/// Where to send media for a joined call (filled in by issue 4, the Janus integration).
public struct MediaEndpoint: Codable, Sendable, Hashable {
    public var janusURL: String
    /// The Janus VideoRoom; any UInt64 (Janus ids are 64-bit, and JSONDecoder reads them exactly).
    public var room: UInt64
    /// A one-time token Janus accepts for this join.
    public var token: String

    public init(janusURL: String, room: UInt64, token: String) {
        self.janusURL = janusURL
        self.room = room
        self.token = token
    }
}
