/// `call.join_admitted` / `call.join_denied`: the answer to this user's knock, sent to the
/// knocker's devices only. It says nothing about the call but its id: admitted, join again;
/// denied, you are told and learn nothing more.
public struct JoinAnswerEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public init(cid: CallID) { self.cid = cid }
}
