import Foundation
import NIOSSL

/// The certificate and key the server terminates TLS with (`--tls-cert`, `--tls-key`): with
/// them it serves `wss://` and `https://`; without, plain `ws://` and `http://` (alone on
/// loopback, or behind a reverse proxy that terminates TLS).
public struct ServerTLS: Sendable, Equatable {
    /// PEM: the server's certificate, then any intermediates.
    public var certificatePath: String
    /// PEM: the certificate's private key.
    public var privateKeyPath: String

    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }

    /// Reads both files. Called before the server listens, so a bad file stops it with the
    /// file's path instead of a server that fails every handshake.
    func configuration() throws(ServerTLSError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw .unreadable(path: certificatePath, what: "certificate", reason: Self.reason(error, path: certificatePath))
        }
        // fromPEMFile reads a file without any PEM block as an empty chain.
        guard !chain.isEmpty else {
            throw .unreadable(path: certificatePath, what: "certificate", reason: "it holds no PEM certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)
        } catch {
            throw .unreadable(path: privateKeyPath, what: "private key", reason: Self.reason(error, path: privateKeyPath))
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        // A key that does not belong to the certificate only shows when the context is made.
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .mismatched(certificatePath: certificatePath, privateKeyPath: privateKeyPath)
        }
        return configuration
    }

    /// NIOSSL's errors say "failedToLoadCertificate" for a missing file and a bad one alike.
    private static func reason(_ error: any Error, path: String) -> String {
        if !FileManager.default.fileExists(atPath: path) { return "no such file" }
        if !FileManager.default.isReadableFile(atPath: path) { return "not readable by this user" }
        return "not valid PEM (\(error))"
    }
}

/// Why the server could not take its TLS files; printed as the reason it did not start.
public enum ServerTLSError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, what: String, reason: String)
    case mismatched(certificatePath: String, privateKeyPath: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let what, let reason):
            "cannot use the TLS \(what) \(path): \(reason)"
        case .mismatched(let certificatePath, let privateKeyPath):
            "the TLS private key \(privateKeyPath) does not belong to the certificate \(certificatePath)"
        }
    }
}
