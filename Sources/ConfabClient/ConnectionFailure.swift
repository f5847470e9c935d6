#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix

/// Why a connection could not be made, in words a person reads in a toast. SwiftNIO's own
/// descriptions name its types ("Connection errors: SingleConnectionFailure(target:
/// [IPv4]127.0.0.1/127.0.0.1:47231, error: connection reset (error set): Connection refused
/// (errno: 111))"): shown in the call's toast when the media server was down, that ran out of
/// the window and said no more than "refused".
enum ConnectionFailure {
    static func plainReason(_ error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first { return plainReason(first.error) }
            if failure.dnsAError != nil || failure.dnsAAAAError != nil { return "its name could not be found" }
        }
        if let failure = error as? IOError, let reason = reason(errno: failure.errnoCode) { return reason }
        if case ChannelError.connectTimeout = error { return "it did not answer in time" }
        return String(describing: error)
    }

    private static func reason(errno: CInt) -> String? {
        switch errno {
        case ECONNREFUSED: "nothing answers there (connection refused)"
        case ETIMEDOUT: "it did not answer in time"
        case ENETUNREACH, EHOSTUNREACH: "there is no route to it"
        case ECONNRESET: "the connection was reset"
        default: nil
        }
    }
}
