import ConfabCore
import ConfabProtocol
import FoundationEssentials

/// The sentences the coordinator client puts in front of the user. The server's own message
/// goes in too: it names the call, the missing capability or the bad field.
extension CallError {
    /// The coordinator answered the request with an error.
    static func refused(_ error: ProtocolError, request: RequestType) -> CallError {
        var sentence = tr("%@: %@.", failedAction(request), error.message)
        if let advice = advice(for: error.code) { sentence += " " + advice }
        return CallError(sentence, saysWhatFailed: true)
    }

    static func timedOut(_ request: RequestType, after timeout: Duration) -> CallError {
        CallError(tr("%@: the call server did not answer within %@. Check your connection and try again.", failedAction(request), timeout.secondsText),
                  saysWhatFailed: true)
    }

    static func unreachable(_ serverURL: String, because reason: String) -> CallError {
        CallError(tr("Couldn’t reach the call server at %@ (%@). Check the address and that the server is running.", serverURL, reason),
                  saysWhatFailed: true)
    }

    /// The server's TLS certificate was refused, or TLS could not be set up (`ServerTrustError`).
    static func notTrusted(_ serverURL: String, _ refusal: ServerTrustError) -> CallError {
        switch refusal {
        case .notTrusted(let reason):
            CallError(tr("The server’s certificate is not trusted (%@: %@). If it uses a private CA, pass --ca-file.", serverURL, reason),
                      saysWhatFailed: true, kind: .serverNotTrusted)
        case .ipAddressURL, .unreadableCAFile:
            CallError(tr("Couldn’t connect securely to the call server at %@: %@.", serverURL, refusal.description),
                      saysWhatFailed: true, kind: .serverNotTrusted)
        }
    }

    static func unreadableAnswer(_ request: RequestType) -> CallError {
        CallError(tr("%@: the call server sent an answer this version of Confab can’t read. Update Confab or the server.", failedAction(request)),
                  saysWhatFailed: true)
    }

    /// The socket closed while a request was waiting for its answer.
    static var connectionLost: CallError {
        CallError(tr("The connection to the call server dropped before it answered. Confab is reconnecting; try again in a moment."))
    }

    private static func failedAction(_ request: RequestType) -> String {
        switch request {
        case .hello: tr("Couldn’t sign in to the call server")
        case .getOrCreateCall: tr("Couldn’t start the call")
        case .getCall: tr("Couldn’t open the call")
        case .joinCall: tr("Couldn’t join the call")
        case .leaveCall: tr("Couldn’t leave the call")
        case .ringCall: tr("Couldn’t ring")
        case .acceptCall: tr("Couldn’t accept the call")
        case .rejectCall: tr("Couldn’t decline the call")
        case .endCall: tr("Couldn’t end the call")
        default: tr("The call server refused “%@”", request.rawValue)
        }
    }

    private static func advice(for code: ErrorCode) -> String? {
        switch code {
        case .invalidToken, .notAuthenticated: tr("Check your sign-in token.")
        case .unsupportedProtocolVersion: tr("This Confab and the call server are different versions; update one of them.")
        case .forbidden: tr("Ask the call’s host for permission.")
        case .privateCall: tr("Ask one of its hosts to add you, or open the call’s link (it carries the secret).")
        case .blockedFromCall: tr("The host has blocked you from this call.")
        case .callEnded: tr("Start a new call instead.")
        case .callNotFound: tr("Check the call id.")
        case .internalError: tr("Try again in a moment.")
        case .waitingForHost: tr("Wait for the host to let you in.")
        case .joinDenied: tr("The host did not let you in.")
        case .rateLimited: tr("Wait a moment and try again.")
        case .messageTooLong: tr("Shorten the message and send it again.")
        default: nil
        }
    }
}

extension Duration {
    /// "10 seconds", "0.5 seconds".
    var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        let number = seconds == seconds.rounded() ? String(Int(seconds)) : seconds.text(decimals: 1)
        return "\(number) second\(seconds == 1 ? "" : "s")"
    }
}
