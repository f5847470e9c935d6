import FoundationEssentials

/// Fetches a call, creating it (with the sender as host) when it does not exist. With `ring`
/// the members are rung as by `ringCall`. `members`, `custom` and `startsAt` only apply when
/// the call is created (so does `askToJoin`): an existing call is only read, under the same
/// rules as `getCall` (someone who is not a member needs its `linkSecret`), and never changes
/// hands.
public struct GetOrCreateCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.getOrCreateCall
    public typealias Response = GetOrCreateCallResponse

    public var cid: CallID
    public var members: [MemberRequest]?
    public var custom: [String: JSONValue]?
    public var startsAt: Date?
    public var ring: Bool?
    public var video: Bool?
    /// The secret from the call's link, for reading an existing call as a non-member.
    public var linkSecret: String?
    /// Gives the new call a waiting room (`CallState.askToJoin`).
    public var askToJoin: Bool?

    public init(
        cid: CallID, members: [MemberRequest]? = nil, custom: [String: JSONValue]? = nil, startsAt: Date? = nil,
        ring: Bool? = nil, video: Bool? = nil, linkSecret: String? = nil, askToJoin: Bool? = nil
    ) {
        self.askToJoin = askToJoin
        self.cid = cid
        self.members = members
        self.custom = custom
        self.startsAt = startsAt
        self.ring = ring
        self.video = video
        self.linkSecret = linkSecret
    }
}

public struct GetOrCreateCallResponse: Codable, Sendable, Hashable {
    public var call: CallState
    /// True when this request created the call (or reopened an ended one to ring it again).
    public var created: Bool

    public init(call: CallState, created: Bool) {
        self.call = call
        self.created = created
    }
}
