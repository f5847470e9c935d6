import ConfabProtocol
import Foundation
import Hummingbird
import NIOCore

/// Plain HTTP for media files: `GET /recordings/TYPE/ID/FILE` (a call's converted recordings,
/// for whoever may read the call: `?token=…`, `Authorization: Bearer …`, or `?user=…` on a
/// dev-auth server) and `GET /live/NAME/USER/KEY/FILE` (a broadcast's HLS playlist and segments
/// for one viewer: the key is that viewer's secret, and each request checks that the viewer
/// may still read the call).
enum MediaFileRoutes {
    static func add(to router: Router<BasicRequestContext>, coordinator: CallCoordinator, tokens: TokenAuthority, devAuth: Bool) {
        router.get("/recordings/:type/:id/:file") { request, context -> Response in
            guard let type = context.parameters.get("type"), let id = context.parameters.get("id"),
                  let file = context.parameters.get("file"), let cid = CallID("\(type):\(id)")
            else { return plain(.notFound, "no such recording") }
            let userId: String
            if let token = request.uri.queryParameters.get("token") ?? bearerToken(of: request) {
                guard let user = try? await tokens.userId(fromToken: token) else { return plain(.unauthorized, "token rejected") }
                userId = user
            } else if devAuth, let user = request.uri.queryParameters.get("user") {
                userId = user
            } else {
                return plain(.unauthorized, "add ?token=… (get one with `confab-server token USER`)")
            }
            guard let path = await coordinator.recordingFile(cid, named: file, for: userId) else {
                return plain(.notFound, "no such recording for \(userId)")
            }
            return fileResponse(path, contentType: "video/x-matroska")
        }
        router.get("/live/:name/:user/:key/:file") { _, context -> Response in
            guard let name = context.parameters.get("name"), let user = context.parameters.get("user"),
                  let key = context.parameters.get("key"), let file = context.parameters.get("file"),
                  let path = await coordinator.liveFile(broadcast: name, viewer: user, key: key, file: file)
            else { return plain(.notFound, "no such broadcast") }
            let type = file.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t"
            return fileResponse(path, contentType: type)
        }
    }

    private static func bearerToken(of request: Request) -> String? {
        guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }

    private static func fileResponse(_ path: URL, contentType: String) -> Response {
        // Recordings of a call and HLS segments are small enough to send from memory.
        guard let data = try? Data(contentsOf: path) else { return plain(.notFound, "not there (yet)") }
        return Response(
            status: .ok, headers: [.contentType: contentType, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
