import Foundation

/// A certificate authority made at test time with `openssl` (as an operator's private CA
/// would be), and a server certificate it issued for `localhost` and 127.0.0.1. Nothing is
/// checked in: every run gets fresh keys in its own folder.
public struct TestCertificateAuthority {
    /// The CA's certificate (PEM): what a client is given with `--ca-file`.
    public let certificatePath: String
    private let keyPath: String
    private let directory: URL

    /// A new CA in `directory`, its files named after `name`.
    public init(named name: String, in directory: URL) throws {
        self.directory = directory
        certificatePath = directory.appendingPathComponent("\(name)-ca.pem").path
        keyPath = directory.appendingPathComponent("\(name)-ca.key").path
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", keyPath, "-out", certificatePath, "-days", "2", "-subj", "/CN=Confab test CA \(name)",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    }

    /// A server certificate (and its key) signed by this CA for `hostName`, and for 127.0.0.1
    /// when that is `localhost`: the files `confab-server --tls-cert --tls-key` take. (NIOSSL
    /// accepts an address in the certificate that matches the socket's whatever the name, so
    /// a certificate meant for another name must not carry 127.0.0.1.)
    public func issueServerCertificate(named name: String, for hostName: String = "localhost") throws -> (certificatePath: String, keyPath: String) {
        let key = directory.appendingPathComponent("\(name).key").path
        let request = directory.appendingPathComponent("\(name).csr").path
        let certificate = directory.appendingPathComponent("\(name).pem").path
        let extensions = directory.appendingPathComponent("\(name).ext")
        let names = hostName == "localhost" ? "DNS:localhost,IP:127.0.0.1" : "DNS:\(hostName)"
        try Data("subjectAltName=\(names)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8)
            .write(to: extensions)
        try Self.openssl(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", key, "-out", request, "-subj", "/CN=\(hostName)"])
        try Self.openssl(["x509", "-req", "-in", request, "-CA", certificatePath, "-CAkey", keyPath,
                          "-set_serial", String(Int.random(in: 2...Int(Int32.max))), "-days", "2",
                          "-extfile", extensions.path, "-out", certificate])
        return (certificate, key)
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let output = ProcessOutput(errors)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("openssl \(arguments.joined(separator: " ")) failed:\n\(output.text)")
        }
    }
}
