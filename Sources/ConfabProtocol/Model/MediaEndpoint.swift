/// Where to send media for a joined call (filled in by issue 4, the Janus integration).
public struct MediaEndpoint: Codable, Sendable, Hashable {
    public var janusURL: String
    public var room: Int
    /// A one-time token Janus accepts for this join.
    public var token: String

    public init(janusURL: String, room: Int, token: String) {
        self.janusURL = janusURL
        self.room = room
        self.token = token
    }
}
