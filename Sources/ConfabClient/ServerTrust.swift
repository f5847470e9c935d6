import FoundationEssentials
import NIOPosix
import NIOSSL

/// Which certificate authorities a `wss://` server's certificate must come from.
public enum ServerTrust: Sendable, Equatable {
    /// The system's trust store (on Debian /etc/ssl/certs/ca-certificates.crt, which is what
    /// NIOSSL loads by default): servers with a certificate from a public CA.
    case system
    /// Only the CAs in this PEM file (`--ca-file`), as curl's `--cacert`: a server whose
    /// certificate comes from a private CA.
    case certificateAuthorities(file: String)

    /// Reads the CA file now, so that a command line with a bad `--ca-file` is refused at
    /// start rather than at the first connection.
    public func validate() throws(ServerTrustError) {
        _ = try tlsConfiguration()
    }

    /// The client side of TLS for a `wss://` connection.
    func tlsConfiguration() throws(ServerTrustError) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        // Closing waits this long for the server's close_notify. With NIOSSL's 5 s default every
        // disconnect from confab-server over wss:// took the full 5 s (confab-peer's exit after
        // a 0.5 s call: 6.0 s against 1.2 s over ws://), and so would every quit of the app.
        configuration.shutdownTimeout = .milliseconds(500)
        switch self {
        case .system:
            break
        case .certificateAuthorities(let file):
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(file)
            } catch {
                throw .unreadableCAFile(path: file, reason: FileManager.default.fileExists(atPath: file) ? "not valid PEM" : "no such file")
            }
            guard !certificates.isEmpty else { throw .unreadableCAFile(path: file, reason: "it holds no PEM certificate") }
            configuration.trustRoots = .certificates(certificates)
        }
        return configuration
    }

    /// What to tell the user about a failed handshake, if it failed on the certificate; nil
    /// for every other failure (refused, reset, timed out), which stays "unreachable".
    static func refusal(in error: any Error) -> ServerTrustError? {
        // Errors raised while the channel is set up come wrapped, one per address tried.
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.lazy.compactMap { refusal(in: $0.error) }.first
        }
        if let error = error as? NIOSSLExtraError {
            switch error {
            case .failedToValidateHostname: return .notTrusted(reason: "it was issued for another name")
            case .cannotUseIPAddressInSNI: return .ipAddressURL
            default: return nil
            }
        }
        // BoringSSL reports a chain it could not verify (unknown CA, expired, self-signed) as
        // one reason code, SSL_R_CERTIFICATE_VERIFY_FAILED; its text is the stable part of the
        // error that NIOSSL hands on.
        if let error = error as? NIOSSLError, case .handshakeFailed(.sslError(let stack)) = error,
           stack.contains(where: { "\($0)".contains("CERTIFICATE_VERIFY_FAILED") }) {
            return .notTrusted(reason: "it does not come from a certificate authority this client trusts")
        }
        return nil
    }
}

/// Why a `wss://` connection could not be trusted, or could not be attempted.
public enum ServerTrustError: Error, Equatable, CustomStringConvertible {
    /// The server's certificate was refused.
    case notTrusted(reason: String)
    /// TLS needs the server's name (SNI, and the name its certificate was issued for).
    case ipAddressURL
    /// `--ca-file` could not be read.
    case unreadableCAFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .notTrusted(let reason): "the server's certificate is not trusted: \(reason)"
        case .ipAddressURL: "wss:// needs the server's name (wss://HOST:PORT), not an IP address"
        case .unreadableCAFile(let path, let reason): "cannot read the CA file \(path): \(reason)"
        }
    }
}
