import ConfabProtocol
import Dispatch
import Foundation
import Hummingbird
import NIOCore

/// What operators and their tools ask a running server: `GET /health` (the process answers),
/// `GET /ready` (it can serve calls: database reachable, its managed Janus or one of its Janus
/// nodes up) and
/// `GET /metrics` (Prometheus text format).
enum OperationsRoutes {
    static func add(
        to router: Router<BasicRequestContext>, coordinator: CallCoordinator, store: any CallStore, media: CallMedia?,
        metrics: ServerMetrics
    ) {
        router.get("/health") { _, _ -> Response in
            let memory = await coordinator.inMemoryCounts
            let status = HealthStatus(
                status: "ok", protocolVersion: ProtocolVersion.current, serverTime: Date(),
                connections: await coordinator.connectionCount, callsInMemory: memory.calls, sessionsInMemory: memory.sessions)
            return try json(status, status: .ok)
        }
        router.get("/ready") { _, _ -> Response in
            let readiness = ReadinessStatus(
                database: await databaseReachable(store) ? .ok : .down, janus: await janusCheck(media))
            return try json(readiness, status: readiness.ready ? .ok : .serviceUnavailable)
        }
        router.get("/metrics") { _, _ -> Response in
            let memory = await coordinator.inMemoryCounts
            let participation = await coordinator.participation
            let janus = await janusCheck(media)
            let snapshot = ServerMetrics.Snapshot(
                connections: await coordinator.connectionCount, callsInMemory: memory.calls,
                callsWithParticipants: participation.activeCalls, participants: participation.participants,
                databaseReachable: await databaseReachable(store),
                managedJanusUp: media?.managedJanus == nil ? nil : janus == .ok,
                janusNodes: await media?.rooms.nodeStatus() ?? [])
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition(snapshot))))
        }
    }

    /// The store's check blocks until the database answers (up to the connect timeout when it
    /// is gone), so it runs on a Dispatch thread, not on one of the few threads Swift's
    /// concurrency shares among every request.
    private static func databaseReachable(_ store: any CallStore) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: store.isReachable()) }
        }
    }

    private static func janusCheck(_ media: CallMedia?) async -> ReadinessStatus.Check {
        guard let media else { return .notChecked }
        if let janus = media.managedJanus { return await janus.isUp ? .ok : .down }
        // Existing Janus nodes (--janus, --janus-node): calls can be served while one is up.
        return await media.rooms.nodeStatus().contains(where: \.isUp) ? .ok : .down
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let body = try ConfabJSON.encoder().encode(value)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
