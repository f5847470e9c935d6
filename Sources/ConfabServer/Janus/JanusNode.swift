import Foundation
import JanusProtocol
import Logging

/// One Janus that calls' rooms can be placed on, and the single owner of whether it is up.
///
/// A node is up while the coordinator's signalling session with it lives: one WebSocket, one
/// Janus session and one videoroom handle (the `Link`), kept alive by keepalives. When the
/// WebSocket closes (Janus killed or restarted: the kernel resets the connection at once), a
/// keepalive gets no answer, or Janus forgets the session, the node is reconnecting: one attempt
/// is made at once, and only if that fails is it down — so a blip (a slow keepalive answer)
/// does not move calls away from a Janus their participants are still connected to. A watcher
/// then keeps trying, backing off up to 5 s, until it is back.
actor JanusNode {
    /// What placement may rely on.
    enum Health: Sendable, Equatable {
        /// The session lives: rooms go here.
        case up
        /// The session just ended and one attempt to make a new one is under way: calls on
        /// this node wait for it rather than move.
        case reconnecting
        /// No session, and the last attempt failed (or none was made yet): calls move away.
        case down
    }

    /// Where this Janus is now: the managed one may restart on another port, so this is asked
    /// before every (re)connection and may wait while Janus starts.
    typealias Locator = @Sendable (_ timeout: Duration) async throws -> String

    /// The node's name in logs and metrics: its URL as configured (`managed` for the managed one).
    nonisolated let name: String
    private let locate: Locator
    private let logger: Logger
    private var link: Link?
    private var connecting: Task<Link, any Error>?
    private var watcher: Task<Void, Never>?
    /// Whether the last failed attempt was logged already (a down node is retried every few
    /// seconds; one warning says it).
    private var failureLogged = false
    private(set) var health = Health.down

    /// A Janus session with one videoroom handle, used for every room request on this node.
    struct Link: Sendable {
        var client: JanusSignallingClient
        var session: UInt64
        var handle: UInt64
        var keepalive: Task<Void, Never>
    }

    /// Keepalives well inside any `session_timeout` (Janus's default is 60 s), often enough that
    /// a Janus that stopped answering (frozen, unplugged) is found out within seconds; a closed
    /// socket is found out at once.
    static let keepaliveInterval: Duration = .seconds(5)
    /// The first retry after a node went down, doubled up to `longestRetry`.
    static let firstRetry: Duration = .milliseconds(250)
    static let longestRetry: Duration = .seconds(5)

    init(name: String, logger: Logger, locate: @escaping Locator) {
        self.name = name
        self.logger = logger
        self.locate = locate
    }

    /// Up: the signalling session with this Janus lives.
    var isUp: Bool { health == .up }

    /// Connects, and keeps connecting whenever the link is lost, until `stop`. `wentDown` is
    /// called each time the node goes down after having been up (so calls placed on it can
    /// move), `cameBack` when it is up again after that (so rooms left on it can go).
    func startWatching(wentDown: @escaping @Sendable (JanusNode) async -> Void,
                       cameBack: @escaping @Sendable (JanusNode) async -> Void) {
        guard watcher == nil else { return }
        watcher = Task { [weak self] in
            var delay = Self.firstRetry
            var wasDown = false
            while !Task.isCancelled {
                guard let self else { return }
                if let link = try? await self.currentLink() {
                    delay = Self.firstRetry
                    if wasDown {
                        wasDown = false
                        await cameBack(self)
                    }
                    await link.client.untilClosed()
                    await self.linkClosed(link)
                    // The next round's `currentLink` is the one attempt made at once.
                    continue
                }
                if await self.reconnectFailed() {
                    wasDown = true
                    await wentDown(self)
                }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, Self.longestRetry)
            }
        }
    }

    /// The open link, or a new one; concurrent callers share one connection attempt.
    func currentLink() async throws -> Link {
        if let link { return link }
        if let connecting { return try await connecting.value }
        let attempt = Task { [locate, logger] in
            let url = try await locate(.seconds(10))
            let client = try await JanusSignallingClient.connect(to: url, logger: logger)
            do {
                let session = try await client.createSession()
                let handle = try await client.attachVideoRoom(session: session)
                return Link(client: client, session: session, handle: handle, keepalive: Self.keepingAlive(session, on: client))
            } catch {
                await client.close()
                throw error
            }
        }
        connecting = attempt
        defer { connecting = nil }
        do {
            let link = try await attempt.value
            self.link = link
            health = .up
            failureLogged = false
            logger.notice("janus node up", metadata: ["node": "\(name)", "url": "\(link.client.url)"])
            return link
        } catch {
            if !failureLogged {
                logger.warning("janus node unreachable; retrying", metadata: ["node": "\(name)", "error": "\(error)"])
                failureLogged = true
            }
            throw error
        }
    }

    /// A request on `link` found the socket closed or the session forgotten: close it, so the
    /// node counts as down until a new session is made.
    func drop(_ link: Link) async {
        await link.client.close()
        linkClosed(link)
    }

    /// Ends the session and stops watching (the rooms stay until Janus stops or the calls end).
    func stop() async {
        watcher?.cancel()
        watcher = nil
        connecting?.cancel()
        health = .down
        guard let link else { return }
        self.link = nil
        link.keepalive.cancel()
        try? await link.client.destroySession(link.session)
        await link.client.close()
    }

    /// Forgets `closed` if it is still the current link (not one replaced meanwhile by a newer
    /// one): the node is reconnecting.
    private func linkClosed(_ closed: Link) {
        guard let link, link.client === closed.client else { return }
        link.keepalive.cancel()
        self.link = nil
        health = .reconnecting
        logger.warning("lost the session with a janus node; reconnecting", metadata: ["node": "\(name)"])
    }

    /// The attempt made at once after losing the session failed: the node is down. True only
    /// then (not for later failed retries of a node already down).
    private func reconnectFailed() -> Bool {
        guard health == .reconnecting else { return false }
        health = .down
        logger.warning("janus node down", metadata: ["node": "\(name)"])
        return true
    }

    private static func keepingAlive(_ session: UInt64, on client: JanusSignallingClient) -> Task<Void, Never> {
        Task { [weak client] in
            while !Task.isCancelled {
                try? await Task.sleep(for: keepaliveInterval)
                guard let client, await !client.isClosed, !Task.isCancelled else { return }
                do {
                    try await client.keepalive(session: session)
                } catch {
                    // No answer, or Janus forgot the session: this link is of no more use, and
                    // closing it is what tells the watcher the node is down.
                    await client.close()
                    return
                }
            }
        }
    }
}
