import ConfabCore
import ConfabProtocol
import Foundation

/// The sentences the coordinator client puts in front of the user. The server's own message
/// goes in too: it names the call, the missing capability or the bad field.
extension CallError {
    /// The coordinator answered the request with an error.
    static func refused(_ error: ProtocolError, request: RequestType) -> CallError {
        var sentence = "\(failedAction(request)): \(error.message)."
        if let advice = advice(for: error.code) { sentence += " \(advice)" }
        return CallError(sentence)
    }

    static func timedOut(_ request: RequestType, after timeout: Duration) -> CallError {
        CallError("\(failedAction(request)): the call server did not answer within \(timeout.secondsText). Check your connection and try again.")
    }

    static func unreachable(_ serverURL: String, because reason: String) -> CallError {
        CallError("Couldn’t reach the call server at \(serverURL) (\(reason)). Check the address and that the server is running.")
    }

    static func unreadableAnswer(_ request: RequestType) -> CallError {
        CallError("\(failedAction(request)): the call server sent an answer this version of Confab can’t read. Update Confab or the server.")
    }

    /// The socket closed while a request was waiting for its answer.
    static let connectionLost = CallError(
        "The connection to the call server dropped before it answered. Confab is reconnecting; try again in a moment.")

    private static func failedAction(_ request: RequestType) -> String {
        switch request {
        case .hello: "Couldn’t sign in to the call server"
        case .getOrCreateCall: "Couldn’t start the call"
        case .getCall: "Couldn’t open the call"
        case .joinCall: "Couldn’t join the call"
        case .leaveCall: "Couldn’t leave the call"
        case .ringCall: "Couldn’t ring"
        case .acceptCall: "Couldn’t accept the call"
        case .rejectCall: "Couldn’t decline the call"
        case .endCall: "Couldn’t end the call"
        default: "The call server refused “\(request.rawValue)”"
        }
    }

    private static func advice(for code: ErrorCode) -> String? {
        switch code {
        case .invalidToken, .notAuthenticated: "Check your sign-in token."
        case .unsupportedProtocolVersion: "This Confab and the call server are different versions; update one of them."
        case .forbidden: "Ask the call’s host for permission."
        case .privateCall: "Ask one of its hosts to add you, or open the call’s link (it carries the secret)."
        case .blockedFromCall: "The host has blocked you from this call."
        case .callEnded: "Start a new call instead."
        case .callNotFound: "Check the call id."
        case .internalError: "Try again in a moment."
        default: nil
        }
    }
}

extension Duration {
    /// "10 seconds", "0.5 seconds".
    var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        let number = seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
        return "\(number) second\(seconds == 1 ? "" : "s")"
    }
}
