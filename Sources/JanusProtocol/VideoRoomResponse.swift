/// What the VideoRoom plugin says (`plugindata.data`): the answer to a request, or an event
/// about the room. Which fields are there depends on `kind` and on what happened; those Confab
/// reads are typed here, the rest is ignored. Ids are UInt64 and a field of the wrong type
/// fails the whole frame (`JanusReplyError.wrongType`) rather than being read as absent.
public struct VideoRoomResponse: Decodable, Sendable, Equatable {
    /// The `videoroom` field.
    public enum Kind: Sendable, Equatable, Decodable {
        case created, edited, destroyed, success, joined, attached, event, participants, talking, stoppedTalking, updated
        case rtpForward, stopRTPForward
        /// A kind Confab does not act on (kept so that it can be logged).
        case other(String)

        public init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            switch name {
            case "created": self = .created
            case "edited": self = .edited
            case "destroyed": self = .destroyed
            case "success": self = .success
            case "joined": self = .joined
            case "attached": self = .attached
            case "event": self = .event
            case "participants": self = .participants
            case "talking": self = .talking
            case "stopped-talking": self = .stoppedTalking
            case "updated": self = .updated
            case "rtp_forward": self = .rtpForward
            case "stop_rtp_forward": self = .stopRTPForward
            default: self = .other(name)
            }
        }
    }

    /// A feed someone publishes (in `joined` and in `event`s as publishers arrive).
    public struct Publisher: Decodable, Sendable, Equatable {
        public var id: UInt64
        public var display: String?
        /// Talking now (rooms with `audiolevel_event`): someone who joins while another talks
        /// learns it here, as `talking` events come only on changes.
        public var talking: Bool?

        public init(id: UInt64, display: String? = nil, talking: Bool? = nil) {
            self.id = id
            self.display = display
            self.talking = talking
        }

        private enum CodingKeys: String, CodingKey { case id, display, talking }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeID(.id)
            display = try container.decodeIfPresent(String.self, forKey: .display)
            talking = try container.decodeIfPresent(Bool.self, forKey: .talking)
        }
    }

    /// Someone in the room (`listparticipants`), publishing or not.
    public struct Participant: Decodable, Sendable, Equatable {
        public var id: UInt64
        public var display: String?
        public var publisher: Bool
        public var talking: Bool?

        public init(id: UInt64, display: String? = nil, publisher: Bool, talking: Bool? = nil) {
            self.id = id
            self.display = display
            self.publisher = publisher
            self.talking = talking
        }

        private enum CodingKeys: String, CodingKey { case id, display, publisher, talking }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeID(.id)
            display = try container.decodeIfPresent(String.self, forKey: .display)
            publisher = try container.decode(Bool.self, forKey: .publisher)
            talking = try container.decodeIfPresent(Bool.self, forKey: .talking)
        }
    }

    /// A stream of a subscription (`attached`, `updated`): its m-line and what it carries.
    public struct Stream: Decodable, Sendable, Equatable {
        public var mid: String?
        /// "audio", "video" or "data".
        public var type: String?
        public var feed: UInt64?

        private enum CodingKeys: String, CodingKey {
            case mid, type
            case feed = "feed_id"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mid = try container.decodeIfPresent(String.self, forKey: .mid)
            type = try container.decodeIfPresent(String.self, forKey: .type)
            feed = try container.decodeIDIfPresent(.feed)
        }
    }

    /// Someone who joined the room (rooms with `notify_joining`).
    public struct Attendee: Decodable, Sendable, Equatable {
        public var id: UInt64
        public var display: String?

        private enum CodingKeys: String, CodingKey { case id, display }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeID(.id)
            display = try container.decodeIfPresent(String.self, forKey: .display)
        }
    }

    /// One RTP forwarder made by `rtp_forward`.
    public struct Forwarder: Decodable, Sendable, Equatable {
        public var streamID: UInt64

        private enum CodingKeys: String, CodingKey {
            case streamID = "stream_id"
        }

        public init(from decoder: any Decoder) throws {
            streamID = try decoder.container(keyedBy: CodingKeys.self).decodeID(.streamID)
        }
    }

    /// `unpublished` and `leaving` name another participant's feed, or say "ok" about our own.
    public enum FeedReference: Decodable, Sendable, Equatable {
        case feed(UInt64)
        case ourselves

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                guard text == "ok" else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "neither a feed id nor \"ok\"")
                }
                self = .ourselves
            } else {
                self = .feed(try JanusID(from: decoder).value)
            }
        }
    }

    public var kind: Kind
    public var room: UInt64?
    /// Our own publisher id (`joined`), or the publisher concerned (`talking`, `stopped-talking`).
    public var id: UInt64?
    /// Given with `joined`; subscribers in rooms with `require_pvtid` must name it.
    public var privateID: UInt64?
    public var publishers: [Publisher]?
    public var participants: [Participant]?
    public var streams: [Stream]?
    public var unpublished: FeedReference?
    public var leaving: FeedReference?
    public var joining: Attendee?
    /// Answers to `exists`.
    public var exists: Bool?
    /// `configured`, `started`, `left`: "ok" when the request went through.
    public var configured: String?
    public var started: String?
    public var left: String?
    /// Forwarders made by `rtp_forward` (Janus 1.x; 0.x nested them in `rtp_stream`).
    public var forwarders: [Forwarder]?
    /// The plugin refused the request: `error_code` and `error`.
    public var refusal: JanusRefusal?

    public init(kind: Kind) {
        self.kind = kind
    }

    private enum CodingKeys: String, CodingKey {
        case kind = "videoroom"
        case room, id, publishers, participants, streams, unpublished, leaving, joining, exists, configured, started, left, forwarders
        case privateID = "private_id"
        case rtpStream = "rtp_stream"
        case errorCode = "error_code"
        case error
    }

    private struct LegacyRTPStream: Decodable {
        var forwarders: [Forwarder]?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        room = try container.decodeIDIfPresent(.room)
        id = try container.decodeIDIfPresent(.id)
        privateID = try container.decodeIDIfPresent(.privateID)
        publishers = try container.decodeIfPresent([Publisher].self, forKey: .publishers)
        participants = try container.decodeIfPresent([Participant].self, forKey: .participants)
        streams = try container.decodeIfPresent([Stream].self, forKey: .streams)
        unpublished = try container.decodeIfPresent(FeedReference.self, forKey: .unpublished)
        leaving = try container.decodeIfPresent(FeedReference.self, forKey: .leaving)
        joining = try container.decodeIfPresent(Attendee.self, forKey: .joining)
        exists = try container.decodeIfPresent(Bool.self, forKey: .exists)
        configured = try container.decodeIfPresent(String.self, forKey: .configured)
        started = try container.decodeIfPresent(String.self, forKey: .started)
        left = try container.decodeIfPresent(String.self, forKey: .left)
        forwarders = try container.decodeIfPresent([Forwarder].self, forKey: .forwarders)
            ?? container.decodeIfPresent(LegacyRTPStream.self, forKey: .rtpStream)?.forwarders
        if let code = try container.decodeIfPresent(Int.self, forKey: .errorCode) {
            refusal = JanusRefusal(code: code, reason: try container.decodeIfPresent(String.self, forKey: .error) ?? "no reason given")
        }
    }
}
