/// A request a client can send; `Response` is the payload of its successful answer.
public protocol ConfabRequest: Codable, Sendable {
    associatedtype Response: Codable & Sendable
    static var type: RequestType { get }
}

/// The `type` of every request, as written on the wire.
public enum RequestType: String, Codable, Sendable, CaseIterable {
    case hello
    case healthCheck
    case getOrCreateCall, getCall
    case joinCall, leaveCall
    case ringCall, acceptCall, rejectCall
    case endCall, updateCall
    case addMembers, removeMembers
    case blockUser, unblockUser
    case muteUsers, kickUser
    case pinForEveryone, unpinForEveryone
    case startRecording, stopRecording
    case goLive, stopLive
    case startBroadcasting, stopBroadcasting
    case resetCallLink
    case sendChatMessage, getChatHistory
    case sendReaction
    case raiseHand, lowerHand
    case admitParticipant, denyParticipant
    case updateVideoViews
    case updateMediaState
}

/// The answer to most call requests: the call as the requesting user now sees it.
public struct CallResponse: Codable, Sendable, Hashable {
    public var call: CallState
    public init(call: CallState) { self.call = call }
}

/// The answer to requests that have nothing to report.
public struct EmptyResponse: Codable, Sendable, Hashable {
    public init() {}
}
