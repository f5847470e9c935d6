import ConfabProtocol
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore

/// The call coordinator: WebSocket at `/` and `/ws`, `GET /health`, `/ready` and `/metrics`,
/// state in SQLite or PostgreSQL, media through Janus (a managed child process unless
/// configured otherwise).
public struct ConfabServer: Sendable {
    public let configuration: ServerConfiguration
    private let logger: Logger

    public init(configuration: ServerConfiguration, logger: Logger = Logger(label: "confab-server")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs until the task is cancelled. `onListening` gets the bound host and port (the real
    /// one when the configuration asked for port 0).
    public func run(onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void) async throws {
        // Before anything else, so that a server that cannot write, or cannot read its
        // certificate, never says "listening".
        let tlsConfiguration = try configuration.tls?.configuration()
        let store = try openCallStore(configuration.database, logger: logger)
        defer { store.close() }
        let dataFolder = URL(fileURLWithPath: configuration.dataFolder)
        let frameLimits = FrameGuard.Limits(maxBytes: configuration.maxMessageSize, maxDepth: FrameGuard.Limits.coordinator.maxDepth)
        let tokens = try await TokenAuthority.loadingSecret(at: configuration.secretPath)
        let media = try await CallMedia.start(configuration.media, roomSecretPath: configuration.roomSecretPath, logger: logger)
        let metrics = ServerMetrics(managesJanus: media?.managedJanus != nil)
        let coordinator = CallCoordinator(
            store: store, tokens: tokens,
            settings: .init(
                devAuth: configuration.devAuth, openCalls: configuration.openCalls, ringAutoCancelTimeout: configuration.ringAutoCancelTimeout,
                healthCheckInterval: configuration.healthCheckInterval,
                dataFolder: dataFolder,
                forwardHost: "127.0.0.1"),
            media: media?.rooms,
            metrics: metrics,
            logger: logger)
        if configuration.openCalls {
            logger.warning("--open-calls: every signed-in user may read and join every call (for local development only)")
        }
        // Coordinators sharing a PostgreSQL tell each other their rings (ReplicaBus).
        let replicas = (store as? PostgresCallStore).map { ReplicaBus(store: $0, logger: logger) }
        if let replicas {
            await coordinator.connectReplicas(replicas)
            await replicas.start { message in await coordinator.handleReplicaMessage(message) }
            await coordinator.startReplicaHeartbeat()
        }
        defer { replicas?.stop() }
        // Broadcasts never outlive their server; what is still there is from one that was killed.
        HLSBroadcast.removeLeftovers(in: await coordinator.liveFolder)
        await coordinator.startHeartbeat()
        defer { Task { await coordinator.stopHeartbeat() } }

        let router = Router()
        OperationsRoutes.add(to: router, coordinator: coordinator, store: store, media: media, metrics: metrics)
        MediaFileRoutes.add(to: router, coordinator: coordinator, tokens: tokens, devAuth: configuration.devAuth)

        let maxMessageSize = configuration.maxMessageSize
        let socketRouter = Router(context: SocketRequestContext.self)
        for path in ["/", "/ws"] {
            socketRouter.ws(RouterPath(path)) { inbound, outbound, context in
                context.requestContext.upgradeTaken()
                await ConnectionLoop.run(
                    inbound: inbound, outbound: outbound, coordinator: coordinator, maxMessageSize: maxMessageSize,
                    frameLimits: frameLimits)
            }
        }

        let host = configuration.host
        let plainServer = HTTPServerBuilder.http1WebSocketUpgrade(
            webSocketRouter: socketRouter,
            configuration: .init(ws: .init(
                // Frames up to 1 MiB are read so that anything over the 64 KiB message limit gets
                // an error answer instead of a dropped connection; beyond 1 MiB NIO closes it.
                maxFrameSize: 1 << 20,
                autoPing: .enabled(timePeriod: configuration.healthCheckInterval))))
        // With TLS every route is behind it: the WebSocket (wss://) and the HTTP ones (https://
        // /health, /ready, /metrics, recordings and broadcasts) alike.
        let server = try tlsConfiguration.map { try HTTPServerBuilder.tls(plainServer, tlsConfiguration: $0) } ?? plainServer
        let httpScheme = configuration.tls == nil ? "http" : "https"
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "confab-server"),
            onServerRunning: { channel in
                await coordinator.setPublicBaseURL("\(httpScheme)://\(host):\(channel.localAddress?.port ?? 0)")
                await onListening(host, channel.localAddress?.port ?? 0)
            },
            logger: logger)
        // Children are stopped however the server ends (cancelled, failed), never left running:
        // broadcast pipelines and recording converters first (their files go with them), then
        // Janus. A server killed outright leaves that to the parent-death signal each child got.
        let result: Result<Void, any Error>
        do {
            try await app.run()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await coordinator.stopProductions()
        await media?.stop()
        try result.get()
    }
}
