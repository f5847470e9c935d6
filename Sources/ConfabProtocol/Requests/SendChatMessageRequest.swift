/// Sends a chat message to everyone in the call (needs `sendChat`, and this device in the
/// call's session). The text must not be blank and may hold up to `ChatMessage.maxTextBytes`
/// bytes of UTF-8 (`messageTooLong` otherwise). The server keeps it with the call.
public struct SendChatMessageRequest: ConfabRequest, Hashable {
    public static let type = RequestType.sendChatMessage
    public typealias Response = ChatMessageResponse

    public var cid: CallID
    public var text: String

    public init(cid: CallID, text: String) {
        self.cid = cid
        self.text = text
    }
}

/// The message as stored (with its id, sender and time), as everyone else receives it.
public struct ChatMessageResponse: Codable, Sendable, Hashable {
    public var message: ChatMessage
    public init(message: ChatMessage) { self.message = message }
}
