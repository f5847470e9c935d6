import JanusProtocol

/// A publisher in the Janus room.
struct PublishedFeed: Sendable, Equatable {
    let id: UInt64
    let display: String?
    /// Whether it is talking now: Janus sends `talking` events only on changes, so someone who
    /// joins while another talks learns it from the publishers list.
    var isTalking = false

    /// The publishers listed in a VideoRoom `joined` or `event` message.
    static func list(in data: VideoRoomResponse?) -> [PublishedFeed] {
        (data?.publishers ?? []).map { PublishedFeed(id: $0.id, display: $0.display, isTalking: $0.talking == true) }
    }
}

/// What the VideoRoom tells the publisher handle about the others in the room.
enum RoomEvent: Sendable, Equatable {
    case publishers([PublishedFeed])
    case left(UInt64)
    case talking(UInt64, Bool)

    /// Reads a VideoRoom event; empty for messages we do not act on.
    static func parse(_ data: VideoRoomResponse?) -> [RoomEvent] {
        guard let data else { return [] }
        var events: [RoomEvent] = []
        let feeds = PublishedFeed.list(in: data)
        if !feeds.isEmpty { events.append(.publishers(feeds)) }
        // "unpublished": "ok" answers our own unpublish; a number is someone else's feed.
        if case .feed(let gone) = data.unpublished { events.append(.left(gone)) }
        if case .feed(let gone) = data.leaving { events.append(.left(gone)) }
        switch (data.kind, data.id) {
        case (.talking, let id?): events.append(.talking(id, true))
        case (.stoppedTalking, let id?): events.append(.talking(id, false))
        default: break
        }
        return events
    }
}
