import FoundationEssentials

/// Changes call settings (needs `updateCall`). Absent fields stay as they are; `custom` replaces
/// the whole custom object.
public struct UpdateCallRequest: ConfabRequest, Hashable {
    public static let type = RequestType.updateCall
    public typealias Response = CallResponse

    public var cid: CallID
    public var custom: [String: JSONValue]?
    public var startsAt: Date?
    public var backstage: Bool?
    /// Turns the waiting room on or off (see `CallState.askToJoin`).
    public var askToJoin: Bool?

    public init(cid: CallID, custom: [String: JSONValue]? = nil, startsAt: Date? = nil, backstage: Bool? = nil,
                askToJoin: Bool? = nil) {
        self.cid = cid
        self.custom = custom
        self.startsAt = startsAt
        self.backstage = backstage
        self.askToJoin = askToJoin
    }
}
