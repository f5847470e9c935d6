/// Shows a reaction over the sender's tile on everyone's screen (needs `sendReaction`, and this
/// device in the call's session). Not kept; a device sending too many is `rateLimited`.
public struct SendReactionRequest: ConfabRequest, Hashable {
    public static let type = RequestType.sendReaction
    public typealias Response = EmptyResponse

    public var cid: CallID
    public var emoji: Reaction

    public init(cid: CallID, emoji: Reaction) {
        self.cid = cid
        self.emoji = emoji
    }
}
