/// `call.chat_message`: someone in the call sent a message (the sender's devices get it too).
public struct ChatMessageEvent: Codable, Sendable, Hashable {
    public var message: ChatMessage
    public init(message: ChatMessage) { self.message = message }
}
