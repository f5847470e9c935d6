import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers

/// The request context of the WebSocket route: Hummingbird's `BasicWebSocketRequestContext`
/// without its leak.
///
/// hummingbird-websocket 2.8.1 hands the upgrade from the route to the socket through a box
/// (`WebSocketHandlerReference`) that the context holds and that is filled with a copy of that
/// same context: box → context → box. Nothing breaks the cycle, so every accepted WebSocket left
/// its context (logger, metadata, the box) behind for good — ~0.75 KiB per closed connection,
/// which is what issue 16's fuzz and connect/close loops measured as memory that never returned.
///
/// Here the context reaches the box through a holder of ours that `upgradeTaken()` empties once
/// the socket's handler runs (the upgrade has read the box by then); with the holder empty the
/// cycle is open and the box, the context copy and its logger are freed with the connection.
struct SocketRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    private let upgrade: UpgradeHolder

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        upgrade = UpgradeHolder()
    }

    /// The box the route fills with the socket's handler. Read after `upgradeTaken()` (nothing
    /// does), it is a new empty one: the upgrade is over.
    var webSocket: WebSocketHandlerReference<Self> {
        upgrade.reference.withLockedValue { $0 } ?? WebSocketHandlerReference()
    }

    /// Called by the socket's handler as it starts: the box has been read, let it go.
    func upgradeTaken() {
        upgrade.reference.withLockedValue { $0 = nil }
    }

    private final class UpgradeHolder: Sendable {
        let reference = NIOLockedValueBox<WebSocketHandlerReference<SocketRequestContext>?>(WebSocketHandlerReference())
    }
}
