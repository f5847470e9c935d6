import ConfabProtocol

/// A publisher in the Janus room.
struct PublishedFeed: Sendable, Equatable {
    let id: UInt64
    let display: String?
    /// Whether it is talking now: Janus sends `talking` events only on changes, so someone who
    /// joins while another talks learns it from the publishers list.
    var isTalking = false

    /// The publishers listed in a VideoRoom `joined` or `event` message.
    static func list(in data: JSONValue?) -> [PublishedFeed] {
        (data?["publishers"]?.arrayValue ?? []).compactMap { entry in
            entry["id"]?.idValue.map {
                PublishedFeed(id: $0, display: entry["display"]?.stringValue, isTalking: entry["talking"] == .bool(true))
            }
        }
    }
}

/// What the VideoRoom tells the publisher handle about the others in the room.
enum RoomEvent: Sendable {
    case publishers([PublishedFeed])
    case left(UInt64)
    case talking(UInt64, Bool)

    /// Reads a VideoRoom event; nil for messages we do not act on.
    static func parse(_ data: JSONValue?) -> [RoomEvent] {
        guard let data else { return [] }
        var events: [RoomEvent] = []
        let feeds = PublishedFeed.list(in: data)
        if !feeds.isEmpty { events.append(.publishers(feeds)) }
        // "unpublished": "ok" answers our own unpublish; a number is someone else's feed.
        if let gone = data["unpublished"]?.idValue { events.append(.left(gone)) }
        if let gone = data["leaving"]?.idValue { events.append(.left(gone)) }
        switch data["videoroom"]?.stringValue {
        case "talking": if let id = data["id"]?.idValue { events.append(.talking(id, true)) }
        case "stopped-talking": if let id = data["id"]?.idValue { events.append(.talking(id, false)) }
        default: break
        }
        return events
    }
}
