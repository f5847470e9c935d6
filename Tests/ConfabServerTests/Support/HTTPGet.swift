import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A minimal HTTP/1.1 GET over a plain socket, so the health test needs no HTTP client library.
/// `https://` URLs trust only the CA in `caFile`.
enum HTTPGet {
    static func fetch(_ url: String, caFile: String? = nil) async throws -> (status: Int, body: Data) {
        guard let components = URLComponents(string: url), let host = components.host, let port = components.port else {
            throw TestClient.Failure.unexpected("bad url \(url)")
        }
        let tls = try components.scheme == "https" ? tlsContext(trusting: caFile) : nil
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: host))
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        var received = ByteBuffer()
        try await channel.executeThenClose { inbound, outbound in
            let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            try await outbound.write(ByteBuffer(string: "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"))
            for try await var chunk in inbound { received.writeBuffer(&chunk) }
        }
        let text = String(buffer: received)
        guard let headerEnd = text.range(of: "\r\n\r\n"),
              let statusText = text.split(separator: " ").dropFirst().first, let status = Int(statusText)
        else { throw TestClient.Failure.unexpected("not an HTTP response: \(text)") }
        return (status, Data(text[headerEnd.upperBound...].utf8))
    }

    private static func tlsContext(trusting caFile: String?) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile { configuration.trustRoots = .file(caFile) }
        return try NIOSSLContext(configuration: configuration)
    }
}
