/// The VideoRoom plugin requests Confab sends (the `body` of a Janus `message`), with Janus's
/// own field names (janus_videoroom.c, Janus 1.1). Room and feed ids are UInt64: Janus allows
/// any 64-bit id, and an id above 2^53 would not survive a `Double`.
public enum VideoRoomRequest: Sendable, Equatable {
    // Rooms (the coordinator).
    case create(room: UInt64, options: VideoRoomOptions)
    case exists(room: UInt64)
    case destroy(room: UInt64, secret: String?, permanent: Bool = false)
    /// Edits the room's `allowed` token list.
    case allowed(room: UInt64, secret: String?, action: AllowedAction, tokens: [String])
    case listParticipants(room: UInt64)
    case kick(room: UInt64, secret: String?, participant: UInt64)
    /// Changes where the room's recordings go.
    case editRecordingFolder(room: UInt64, secret: String?, folder: String)
    case enableRecording(room: UInt64, secret: String?, record: Bool)
    /// Copies a publisher's streams as plain RTP to `host`, by mid.
    case rtpForward(room: UInt64, publisher: UInt64, secret: String?, adminKey: String?, host: String, streams: [ForwardedStream])
    case stopRTPForward(room: UInt64, publisher: UInt64, stream: UInt64, secret: String?, adminKey: String?)

    // Participants (the apps and confab-peer).
    case joinPublisher(room: UInt64, token: String?, display: String?)
    /// Subscribes to `feeds`; `privateID` ties the subscription to our own publisher (rooms
    /// with `require_pvtid`).
    case joinSubscriber(room: UInt64, token: String?, privateID: UInt64?, feeds: [UInt64])
    /// Publishes with the offer sent beside it.
    case publish
    case unpublish
    /// A subscriber's answer goes beside it.
    case start
    /// A subscriber turns receiving of each stream (by mid) on or off; asking for `send: true`
    /// also makes Janus ask the publisher for a keyframe.
    case configureSubscription([StreamSwitch])
    case leave

    public enum AllowedAction: String, Sendable, Codable {
        case enable, disable, add, remove
    }

    /// One stream of an `rtp_forward`: which m-line and the local port it goes to.
    public struct ForwardedStream: Sendable, Equatable, Encodable {
        public var mid: String
        public var port: Int
        public init(mid: String, port: Int) {
            self.mid = mid
            self.port = port
        }
    }

    /// Receive (or stop receiving) the stream with this mid.
    public struct StreamSwitch: Sendable, Equatable, Encodable {
        public var mid: String
        public var send: Bool
        public init(mid: String, send: Bool) {
            self.mid = mid
            self.send = send
        }
    }

    /// The `request` field.
    public var name: String {
        switch self {
        case .create: "create"
        case .exists: "exists"
        case .destroy: "destroy"
        case .allowed: "allowed"
        case .listParticipants: "listparticipants"
        case .kick: "kick"
        case .editRecordingFolder: "edit"
        case .enableRecording: "enable_recording"
        case .rtpForward: "rtp_forward"
        case .stopRTPForward: "stop_rtp_forward"
        case .joinPublisher, .joinSubscriber: "join"
        case .publish: "publish"
        case .unpublish: "unpublish"
        case .start: "start"
        case .configureSubscription: "configure"
        case .leave: "leave"
        }
    }
}

extension VideoRoomRequest: Encodable {
    private enum Key: String, CodingKey {
        case request, room, secret, permanent, action, allowed, id, new_rec_dir, record, publisher_id, admin_key, host
        case streams, stream_id, ptype, token, display, private_id, feed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: .request)
        switch self {
        case .create(let room, let options):
            try container.encode(room, forKey: .room)
            try options.encode(to: encoder)
        case .exists(let room), .listParticipants(let room):
            try container.encode(room, forKey: .room)
        case .destroy(let room, let secret, let permanent):
            try container.encode(room, forKey: .room)
            try container.encodeIfPresent(secret, forKey: .secret)
            try container.encode(permanent, forKey: .permanent)
        case .allowed(let room, let secret, let action, let tokens):
            try container.encode(room, forKey: .room)
            try container.encodeIfPresent(secret, forKey: .secret)
            try container.encode(action, forKey: .action)
            try container.encode(tokens, forKey: .allowed)
        case .kick(let room, let secret, let participant):
            try container.encode(room, forKey: .room)
            try container.encodeIfPresent(secret, forKey: .secret)
            try container.encode(participant, forKey: .id)
        case .editRecordingFolder(let room, let secret, let folder):
            try container.encode(room, forKey: .room)
            try container.encodeIfPresent(secret, forKey: .secret)
            try container.encode(folder, forKey: .new_rec_dir)
        case .enableRecording(let room, let secret, let record):
            try container.encode(room, forKey: .room)
            try container.encodeIfPresent(secret, forKey: .secret)
            try container.encode(record, forKey: .record)
        case .rtpForward(let room, let publisher, let secret, let adminKey, let host, let streams):
            try container.encode(room, forKey: .room)
            try container.encode(publisher, forKey: .publisher_id)
            try container.encodeIfPresent(secret, forKey: .secret)
            try container.encodeIfPresent(adminKey, forKey: .admin_key)
            try container.encode(host, forKey: .host)
            try container.encode(streams, forKey: .streams)
        case .stopRTPForward(let room, let publisher, let stream, let secret, let adminKey):
            try container.encode(room, forKey: .room)
            try container.encode(publisher, forKey: .publisher_id)
            try container.encode(stream, forKey: .stream_id)
            try container.encodeIfPresent(secret, forKey: .secret)
            try container.encodeIfPresent(adminKey, forKey: .admin_key)
        case .joinPublisher(let room, let token, let display):
            try container.encode("publisher", forKey: .ptype)
            try container.encode(room, forKey: .room)
            try container.encodeIfPresent(token, forKey: .token)
            try container.encodeIfPresent(display, forKey: .display)
        case .joinSubscriber(let room, let token, let privateID, let feeds):
            try container.encode("subscriber", forKey: .ptype)
            try container.encode(room, forKey: .room)
            try container.encodeIfPresent(token, forKey: .token)
            try container.encodeIfPresent(privateID, forKey: .private_id)
            try container.encode(feeds.map { SubscribedFeed(feed: $0) }, forKey: .streams)
        case .configureSubscription(let switches):
            try container.encode(switches, forKey: .streams)
        case .publish, .unpublish, .start, .leave:
            break
        }
    }

    /// `{"feed": ID}` in a subscriber's `streams`.
    private struct SubscribedFeed: Encodable {
        var feed: UInt64
    }
}
