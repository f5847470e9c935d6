import ConfabCore
import ConfabProtocol
import FoundationEssentials
import Logging

/// `CallService` over the coordinator's WebSocket.
///
///     let client = CoordinatorClient(serverURL: "ws://127.0.0.1:8630/ws", userID: "alice", token: token)
///     client.setEventHandler { event in … }   // before connecting: rings waiting for us come right after sign-in
///     try await client.connect()              // throws CallError when the server can't be reached or refuses us
///     let call = try await client.getOrCreateCall(cid, memberIDs: ["bob"], ring: true, video: true)
///     …
///     await client.disconnect()
///
/// Once connected, the client stays connected until `disconnect()`: when the socket drops, or
/// no frame (not even the coordinator's health check) arrives for `missedHeartbeatsBeforeLost`
/// intervals, it reports `.connectionLost` once, reconnects with backoff, signs in again and
/// reports `.connectionRestored`. Requests made meanwhile fail at once with
/// `CallError.notConnected`. Events are delivered on the main actor in the order the
/// coordinator sent them; the socket itself runs off the main actor.
///
/// Given several addresses (`ServerEndpoints`), `connect()` signs in to the first that answers,
/// and a reconnection attempt that fails moves on to the next address, so a client of a replica
/// that died reaches another.
@MainActor
public final class CoordinatorClient: CallService {
    /// Tuning that tests and tools change; the defaults suit the app.
    public struct Options: Sendable {
        /// How long a request may wait for its answer.
        public var requestTimeout: Duration = .seconds(10)
        /// How long opening the socket may take.
        public var connectTimeout: Duration = .seconds(10)
        public var reconnectBackoff = ReconnectBackoff()
        /// Health checks that may go missing before the connection counts as lost.
        public var missedHeartbeatsBeforeLost = 3
        /// How soon the coordinator must answer a health check after the network changed
        /// (`networkChanged()`) for the connection to be kept.
        public var networkCheckTimeout: Duration = .seconds(2)
        /// Shown in the server's logs ("confab (GTK)", "confab-peer").
        public var clientName = "confab"
        /// Whose certificates a `wss://` server may present (`--ca-file`).
        public var serverTrust = ServerTrust.system

        public init() {}
    }

    /// The coordinator's address in use (or tried next), `ws://HOST:PORT/ws`.
    public var serverURL: String { servers.current }
    /// Every address this client may use, and which one is in use.
    public private(set) var servers: ServerEndpoints
    /// Whose certificates a `wss://` server may present; media servers handed out by this
    /// coordinator are trusted the same way.
    public var serverTrust: ServerTrust { options.serverTrust }
    public let currentUserID: String
    /// This device's id on the coordinator (from the last sign-in); nil while not signed in.
    public private(set) var connectionID: String?
    /// True while signed in: requests can be made.
    public var isConnected: Bool { phase == .signedIn }

    private let token: String?
    private let options: Options
    private let logger: Logger
    private var translator: CallEventTranslator
    private var eventHandler: (@MainActor (CallServiceEvent) -> Void)?
    private var serverEventObserver: (@MainActor (ServerEvent) -> Void)?
    /// This device's participant session in each call it joined.
    private var sessionIDs: [CallID: String] = [:]
    /// Link secrets of calls this user opened through a link (`useLink`), sent with every
    /// request that may need them: the server only remembers a link holder while the call is
    /// in its memory, so a rejoin after a reconnect or a server restart presents it again.
    private var linkSecrets: [CallID: String] = [:]
    /// Whether this device's microphone and camera are on in each call it joins: said with
    /// every join of the call (a rejoin after a reconnect too) and, while joined, told as it changes.
    private var mediaStates: [CallID: OwnMediaState] = [:]
    /// Calls whose media state is told again shortly (the last telling was refused as too fast).
    private var mediaRetells: Set<CallID> = []

    // MARK: Connection state

    private enum Phase { case disconnected, opening, signingIn, signedIn }
    private var phase = Phase.disconnected
    /// The socket in use; frames and closures from older sockets are ignored.
    private var connection: Connection?
    /// True between `connect()` and `disconnect()`: a dropped socket is reconnected.
    private var staysConnected = false
    /// `.connectionLost` was reported and `.connectionRestored` is owed.
    private var owesRestoredEvent = false
    private var reconnecting: Task<Void, Never>?
    /// The reconnection is waiting out its backoff (not in the middle of an attempt).
    private var isWaitingToReconnect = false
    /// The health check asked after a network change, while it waits for its answer.
    private var networkCheck: Task<Void, Never>?
    private var heartbeatWatch: Task<Void, Never>?
    private var lastFrameAt = ContinuousClock.now
    private var openWaiter: (id: Int, continuation: CheckedContinuation<Void, any Error>)?
    private var nextConnectionNumber = 0

    private struct Connection {
        let id: Int
        let socket: CoordinatorSocket
        let task: Task<Void, Never>
    }

    // MARK: Requests in flight

    private struct PendingRequest {
        let type: RequestType
        /// The caller decides by the server's error code (`ProtocolError`), not a sentence.
        let wantsProtocolError: Bool
        /// Resumed with the answer's payload, read by the socket as the request's `Response`.
        let continuation: CheckedContinuation<any Sendable, any Error>
        let timeout: Task<Void, Never>
    }
    private var pending: [String: PendingRequest] = [:]
    private var nextRequestNumber = 0

    /// `token` comes from `confab-server token USER`; without one only a `--dev-auth` server
    /// accepts `userID`. With both, the server checks they name the same user.
    public convenience init(serverURL: String, userID: String, token: String? = nil, options: Options = Options(),
                            logger: Logger = Logger(label: "confab.coordinator")) {
        self.init(servers: ServerEndpoints(serverURL), userID: userID, token: token, options: options, logger: logger)
    }

    /// A client that may use any of `servers` (replicas of one coordinator).
    public init(servers: ServerEndpoints, userID: String, token: String? = nil, options: Options = Options(),
                logger: Logger = Logger(label: "confab.coordinator")) {
        self.servers = servers
        self.currentUserID = userID
        self.token = token
        self.options = options
        self.logger = logger
        self.translator = CallEventTranslator(currentUserID: userID)
    }

    public func setEventHandler(_ handler: @escaping @MainActor (CallServiceEvent) -> Void) {
        eventHandler = handler
    }

    /// Sees every coordinator event as it came, health checks included (for reports and tools).
    public func setServerEventObserver(_ observer: @escaping @MainActor (ServerEvent) -> Void) {
        serverEventObserver = observer
    }

    /// Lets this client into `call` with the secret from its link (calls are private: without
    /// being a member, the server answers `privateCall`). Kept for the client's lifetime.
    public func useLink(secret: String, for call: CallID) {
        linkSecrets[call] = secret
    }

    /// This device's participant session id in `call`, once joined.
    public func sessionID(in call: CallID) -> String? {
        sessionIDs[call]
    }

    // MARK: Connecting

    /// Opens the socket and signs in, trying each address in turn. Throws `CallError` when no
    /// server can be reached or they refuse the sign-in (a refused certificate rather than an
    /// unreachable address when there was one: that is the one to act on); the client is then
    /// disconnected and `connect()` may be tried again.
    public func connect() async throws {
        guard !staysConnected else { return }
        staysConnected = true
        var failures: [any Error] = []
        for _ in servers.urls.indices {
            do {
                try await openConnection()
                return
            } catch {
                failures.append(error)
                guard staysConnected else { break }
                servers.moveToNext()
            }
        }
        staysConnected = false
        throw failures.first { ($0 as? CallError)?.kind == .serverNotTrusted } ?? failures.last ?? CallError.notConnected
    }

    /// Closes the socket and stops reconnecting; requests in flight fail with `notConnected`.
    public func disconnect() async {
        staysConnected = false
        reconnecting?.cancel()
        reconnecting = nil
        guard let connection else { return }
        connectionEnded(connection.id, error: nil)
        await connection.task.value
    }

    private func openConnection() async throws {
        nextConnectionNumber += 1
        let id = nextConnectionNumber
        let socket = CoordinatorSocket(url: serverURL, trust: options.serverTrust, logger: logger)
        // The socket's task must not keep the client alive: the client owns the socket.
        let owner = WeakClient(self)
        let task = Task.detached {
            var failure: (any Error)?
            do {
                try await socket.run(
                    opened: { await owner.client?.socketOpened(id) },
                    received: { frame in await owner.client?.receive(frame, on: id) })
            } catch {
                failure = error
            }
            await owner.client?.connectionEnded(id, error: failure)
        }
        connection = Connection(id: id, socket: socket, task: task)
        phase = .opening
        do {
            try await waitUntilOpen(id)
            phase = .signingIn
            let hello = try await send(
                HelloRequest(token: token, userId: currentUserID, clientName: options.clientName), duringSignIn: true)
            guard connection?.id == id else { throw CallError.connectionLost }
            connectionID = hello.connectionId
            translator.connectionID = hello.connectionId
            phase = .signedIn
            lastFrameAt = .now
            watchHeartbeat(on: id, interval: .milliseconds(max(hello.healthCheckIntervalMs, 100)))
            logger.info("signed in to the coordinator", metadata: ["user": "\(hello.userId)", "connection": "\(hello.connectionId)"])
        } catch {
            if connection?.id == id { connectionEnded(id, error: error) }
            throw error
        }
    }

    private func waitUntilOpen(_ id: Int) async throws {
        let timeout = options.connectTimeout
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self?.openFailed(id, CallError.unreachable(self?.serverURL ?? "", because: "no answer within \(timeout.secondsText)"))
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { continuation in
            openWaiter = (id, continuation)
        }
    }

    private func socketOpened(_ id: Int) {
        guard let waiter = openWaiter, waiter.id == id else { return }
        openWaiter = nil
        waiter.continuation.resume()
    }

    private func openFailed(_ id: Int, _ error: any Error) {
        guard let waiter = openWaiter, waiter.id == id else { return }
        openWaiter = nil
        waiter.continuation.resume(throwing: error)
    }

    /// The socket `id` is gone (closed, broken, silent, or we closed it). Everything that
    /// depended on it fails, and, if the user was signed in, reconnection starts.
    private func connectionEnded(_ id: Int, error: (any Error)?) {
        guard let connection, connection.id == id else { return }
        self.connection = nil
        connection.task.cancel()
        heartbeatWatch?.cancel()
        heartbeatWatch = nil
        let wasSignedIn = phase == .signedIn
        phase = .disconnected
        connectionID = nil
        translator.connectionID = nil
        sessionIDs.removeAll()
        openFailed(id, Self.openFailure(serverURL, error))
        let waiting = pending
        pending.removeAll()
        // After disconnect(): not connected. Signed in: the client is reconnecting. Signing in:
        // the first attempt failed, or a reconnection attempt that will be retried.
        let failure = !staysConnected ? CallError.notConnected
            : wasSignedIn ? CallError.connectionLost
            : CallError.unreachable(serverURL, because: error.map(Self.describe) ?? "the connection closed while signing in")
        for request in waiting.values {
            request.timeout.cancel()
            request.continuation.resume(throwing: failure)
        }
        guard staysConnected else { return }
        if wasSignedIn {
            logger.warning("lost the connection to the coordinator", metadata: ["error": "\(error.map(Self.describe) ?? "closed")"])
            if !owesRestoredEvent {
                owesRestoredEvent = true
                deliver(.connectionLost)
            }
            reconnect()
        }
    }

    /// Tries again with backoff until signed in or `disconnect()`; `atOnce`, the first try is
    /// made without waiting.
    private func reconnect(atOnce: Bool = false) {
        guard reconnecting == nil else { return }
        reconnecting = Task { [weak self] in
            var failures = 0
            while true {
                guard let backoff = self?.options.reconnectBackoff else { return }
                let delay = atOnce && failures == 0 ? .zero : backoff.delay(afterFailures: failures)
                self?.isWaitingToReconnect = true
                try? await Task.sleep(for: delay)
                guard let self, self.staysConnected, !Task.isCancelled else { return }
                self.isWaitingToReconnect = false
                do {
                    try await self.openConnection()
                    self.reconnecting = nil
                    if self.owesRestoredEvent {
                        self.owesRestoredEvent = false
                        self.deliver(.connectionRestored)
                    }
                    return
                } catch {
                    failures += 1
                    self.logger.info("reconnection attempt failed", metadata: ["attempt": "\(failures)", "error": "\(error)"])
                    // The address in use did not come back: the next attempt tries another replica.
                    if self.servers.urls.count > 1 {
                        self.servers.moveToNext()
                        self.logger.notice("trying the next call server", metadata: ["server": "\(self.serverURL)"])
                    }
                }
            }
        }
    }

    // MARK: The network under the connection

    /// The system's network changed (an address or a route came or went: another Wi-Fi, the
    /// cable back in). A socket made on the old network may be dead without TCP noticing (its
    /// address gone: the heartbeat tells only after three missed intervals, 30 s), or its
    /// frames stuck behind retransmissions backed off to seconds; a reconnection waiting out
    /// its backoff may find the network back already. So the socket proves itself with a health
    /// check answered within `Options.networkCheckTimeout`, or is given up and made anew at once;
    /// a reconnection waiting is tried at once.
    public func networkChanged() {
        guard staysConnected else { return }
        if reconnecting != nil, isWaitingToReconnect {
            reconnecting?.cancel()
            reconnecting = nil
            isWaitingToReconnect = false
            reconnect(atOnce: true)
            return
        }
        guard phase == .signedIn, let id = connection?.id, networkCheck == nil else { return }
        let timeout = options.networkCheckTimeout
        networkCheck = Task { [weak self] in
            do {
                _ = try await self?.send(HealthCheckRequest(), timeout: timeout)
                self?.networkCheck = nil
            } catch {
                guard let self else { return }
                self.networkCheck = nil
                guard self.connection?.id == id, self.phase == .signedIn else { return }
                self.logger.warning("the coordinator did not answer after the network changed", metadata: ["error": "\(error)"])
                self.connectionEnded(id, error: CallError("no answer within \(timeout.secondsText) after the network changed"))
            }
        }
    }

    /// The coordinator sends a health check every interval; a socket that stays silent for
    /// several is dead even if TCP has not noticed (a frozen server, a dropped route).
    private func watchHeartbeat(on id: Int, interval: Duration) {
        heartbeatWatch?.cancel()
        let limit = interval * options.missedHeartbeatsBeforeLost
        heartbeatWatch = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval / 2)
                guard let self, !Task.isCancelled, self.connection?.id == id else { return }
                if ContinuousClock.now - self.lastFrameAt > limit {
                    self.logger.warning("no heartbeat from the coordinator", metadata: ["silentFor": "\(ContinuousClock.now - self.lastFrameAt)"])
                    self.connectionEnded(id, error: CallError("no heartbeat for \(limit.secondsText)"))
                    return
                }
            }
        }
    }

    // MARK: Frames

    private func receive(_ frame: InboundFrame, on id: Int) {
        guard connection?.id == id else { return }
        lastFrameAt = .now
        switch frame {
        case .response(let requestID, let answer):
            guard let request = pending.removeValue(forKey: requestID) else {
                logger.debug("answer to a request no longer waiting", metadata: ["id": "\(requestID)"])
                return
            }
            request.timeout.cancel()
            switch answer {
            case .read(let payload):
                request.continuation.resume(returning: payload)
            case .unreadable(let reason):
                logger.warning("unreadable answer from the coordinator", metadata: ["request": "\(request.type.rawValue)", "error": "\(reason)"])
                request.continuation.resume(throwing: CallError.unreadableAnswer(request.type))
            case .notAwaited:
                // Registered before sending and taken only here: an answer the socket did not
                // await is one we no longer wait for either (it raced a timeout).
                request.continuation.resume(throwing: CallError.unreadableAnswer(request.type))
            }
        case .error(let requestID, let error):
            guard let requestID, let request = pending.removeValue(forKey: requestID) else {
                logger.warning("the coordinator could not read a frame we sent", metadata: ["error": "\(error)"])
                return
            }
            request.timeout.cancel()
            request.continuation.resume(throwing: request.wantsProtocolError ? error : CallError.refused(error, request: request.type))
        case .event(let event):
            serverEventObserver?(event)
            for translated in translator.translate(event) { deliver(translated) }
        }
    }

    private func deliver(_ event: CallServiceEvent) {
        eventHandler?(event)
    }

    /// Sends a request and waits for its typed answer.
    /// With `refusalAsProtocolError`, an error answer is thrown as the server's `ProtocolError`
    /// (for callers that act on its code) instead of a `CallError` for the user.
    func send<Request: ConfabRequest>(
        _ request: Request, duringSignIn: Bool = false, refusalAsProtocolError: Bool = false, timeout: Duration? = nil
    ) async throws -> Request.Response {
        guard let connection, phase == .signedIn || (duringSignIn && phase == .signingIn) else { throw CallError.notConnected }
        nextRequestNumber += 1
        let id = String(nextRequestNumber)
        let text: String
        do {
            text = String(decoding: try ConfabJSON.encoder().encode(RequestEnvelope(id: id, payload: request)), as: UTF8.self)
        } catch {
            throw CallError(tr("Couldn’t prepare the request “%@”: %@.", Request.type.rawValue, "\(error)"), saysWhatFailed: true)
        }
        let timeout = timeout ?? options.requestTimeout
        let socket = connection.socket
        // The socket reads the answer as `Response` in its one decode of the frame.
        socket.answers.expect(Request.Response.self, for: id)
        let payload = try await withCheckedThrowingContinuation { continuation in
            let timer = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return }
                self?.expire(id, after: timeout, on: socket)
            }
            pending[id] = PendingRequest(
                type: Request.type, wantsProtocolError: refusalAsProtocolError, continuation: continuation, timeout: timer)
            socket.send(text)
        }
        guard let response = payload as? Request.Response else { throw CallError.unreadableAnswer(Request.type) }
        return response
    }

    private func expire(_ id: String, after timeout: Duration, on socket: CoordinatorSocket) {
        socket.answers.forget(id)
        guard let request = pending.removeValue(forKey: id) else { return }
        request.continuation.resume(throwing: CallError.timedOut(request.type, after: timeout))
    }

    /// Why the socket to `serverURL` did not open: a refused certificate, or unreachable.
    private static func openFailure(_ serverURL: String, _ error: (any Error)?) -> CallError {
        if let refusal = error as? ServerTrustError { return CallError.notTrusted(serverURL, refusal) }
        return CallError.unreachable(serverURL, because: error.map(Self.describe) ?? "the connection closed")
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? CallError { return error.message }
        return ConnectionFailure.plainReason(error)
    }

    // MARK: CallService

    public func getOrCreateCall(_ call: CallID, memberIDs: [String], ring: Bool, video: Bool) async throws -> CallSnapshot {
        try await getOrCreateCall(call, memberIDs: memberIDs, ring: ring, video: video, askToJoin: false)
    }

    /// As `getOrCreateCall(_:memberIDs:ring:video:)`; a call this creates with `askToJoin` has a
    /// waiting room (an existing call keeps its setting).
    public func getOrCreateCall(_ call: CallID, memberIDs: [String], ring: Bool, video: Bool, askToJoin: Bool) async throws -> CallSnapshot {
        let request = GetOrCreateCallRequest(
            cid: call, members: memberIDs.map { MemberRequest(userId: $0) }, ring: ring, video: video,
            linkSecret: linkSecrets[call], askToJoin: askToJoin ? true : nil)
        return translator.remember(try await send(request).call)
    }

    public func getCall(_ call: CallID) async throws -> CallSnapshot {
        translator.remember(try await send(GetCallRequest(cid: call, linkSecret: linkSecrets[call])).call)
    }

    /// A new link for `call`; the old one stops working (hosts: `updateCall`).
    public func resetCallLink(in call: CallID) async throws -> CallSnapshot {
        translator.remember(try await send(ResetCallLinkRequest(cid: call)).call)
    }

    /// Joins an existing call (`joinCall(_:create:)` can create it). The media settings stay
    /// on this device until the Janus integration needs them.
    /// Joins from the app: a call is made on first join, as typing a new call name in the
    /// lobby expects (joining a ring's call finds it existing).
    public func joinCall(_ call: CallID, settings: CallSettings) async throws -> CallSnapshot {
        joinsWith(OwnMediaState(settings), in: call)
        return try await joinCall(call, create: true)
    }

    /// Joins the call's session from this device; with `create` the call is made first if missing.
    public func joinCall(_ call: CallID, create: Bool) async throws -> CallSnapshot {
        let state = mediaStates[call]
        let response = try await send(JoinCallRequest(cid: call, create: create, linkSecret: linkSecrets[call],
                                                      microphoneOn: state?.microphoneOn, cameraOn: state?.cameraOn))
        return joined(call, response, saidState: state)
    }

    /// The app's join from the lobby: knocks when the call asks to join (`CallService`).
    public func joinOrKnock(_ call: CallID, settings: CallSettings) async throws -> JoinAttempt {
        joinsWith(OwnMediaState(settings), in: call)
        return try await joinOrKnock(call, create: true)
    }

    /// Joins, or knocks when the call asks to join and a host has not let this user in yet:
    /// then wait for `.joinAdmitted` (and join again) or `.joinDenied` through
    /// `setServerEventObserver`. Other refusals throw `CallError` as `joinCall` does.
    public func joinOrKnock(_ call: CallID, create: Bool) async throws -> JoinAttempt {
        do {
            let state = mediaStates[call]
            let response = try await send(
                JoinCallRequest(cid: call, create: create, linkSecret: linkSecrets[call],
                                microphoneOn: state?.microphoneOn, cameraOn: state?.cameraOn),
                refusalAsProtocolError: true)
            return .joined(joined(call, response, saidState: state))
        } catch let refusal as ProtocolError {
            switch refusal.code {
            case .waitingForHost: return .waitingForHost
            case .joinDenied: return .denied
            default: throw CallError.refused(refusal, request: .joinCall)
            }
        }
    }

    /// Keeps the call's state as the latest known (events are translated against it).
    func remember(_ state: CallState) -> CallSnapshot {
        translator.remember(state)
    }

    private func joined(_ cid: CallID, _ response: JoinCallResponse, saidState: OwnMediaState?) -> CallSnapshot {
        sessionIDs[cid] = response.sessionId
        // Toggled while the join was on its way: the call has the state from before.
        if mediaStates[cid] != saidState {
            Task.immediate { try? await self.tellMediaState(in: cid) }
        }
        var snapshot = translator.remember(response.call)
        snapshot.ownSessionID = response.sessionId
        snapshot.media = response.media.flatMap(MediaEndpointInfo.init)
        return snapshot
    }

    public func renewMedia(in call: CallID) async throws -> CallSnapshot {
        let cid = call
        let response = try await send(JoinCallRequest(cid: cid, renewMedia: true, linkSecret: linkSecrets[cid]))
        var snapshot = translator.remember(response.call)
        snapshot.ownSessionID = response.sessionId
        snapshot.media = response.media.flatMap(MediaEndpointInfo.init)
        return snapshot
    }

    public func leaveCall(_ call: CallID) async throws {
        let cid = call
        translator.remember(try await send(LeaveCallRequest(cid: cid)).call)
        sessionIDs[cid] = nil
        mediaStates[cid] = nil
    }

    /// The next join of `call` says whether the microphone and camera are on (`setMediaState`
    /// once joined).
    public func joinsWith(_ state: OwnMediaState, in call: CallID) {
        mediaStates[call] = state
    }

    /// Whether this device's microphone and camera are on in `call`: told to the call now when
    /// this device is in it, and said with every later join of it.
    public func setMediaState(_ state: OwnMediaState, in call: CallID) async throws {
        guard mediaStates[call] != state else { return }
        mediaStates[call] = state
        try await tellMediaState(in: call)
    }

    /// Tells the call the state kept for it, when this device is in it. A telling refused as
    /// too fast (toggles past the coordinator's limit) leaves the call with the state before:
    /// it hears the state as it then is a second later, not only at the next toggle.
    private func tellMediaState(in call: CallID) async throws {
        guard sessionIDs[call] != nil, let state = mediaStates[call] else { return }
        do {
            _ = try await send(Self.update(state, in: call), refusalAsProtocolError: true)
        } catch let refusal as ProtocolError where refusal.code == .rateLimited {
            guard mediaRetells.insert(call).inserted else { return }
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(1))
                self?.mediaRetells.remove(call)
                try? await self?.tellMediaState(in: call)
            }
        } catch let refusal as ProtocolError {
            throw CallError.refused(refusal, request: .updateMediaState)
        }
    }

    private static func update(_ state: OwnMediaState, in call: CallID) -> UpdateMediaStateRequest {
        UpdateMediaStateRequest(cid: call, microphoneOn: state.microphoneOn, cameraOn: state.cameraOn)
    }

    public func acceptCall(_ call: CallID) async throws {
        translator.remember(try await send(AcceptCallRequest(cid: call)).call)
    }

    public func rejectCall(_ call: CallID, reason: RejectionReason) async throws {
        translator.remember(try await send(RejectCallRequest(cid: call, reason: RejectReason(reason))).call)
    }

    public func endCall(_ call: CallID) async throws {
        translator.remember(try await send(EndCallRequest(cid: call)).call)
    }

    /// Rings members of an existing call (all but us when `memberIDs` is nil).
    public func ringCall(_ call: CallID, memberIDs: [String]? = nil, video: Bool) async throws -> CallSnapshot {
        translator.remember(try await send(RingCallRequest(cid: call, memberIds: memberIDs, video: video)).call)
    }
}

/// A reference to the client that does not keep it alive, for the socket's task.
private final class WeakClient: Sendable {
    weak let client: CoordinatorClient?
    init(_ client: CoordinatorClient) { self.client = client }
}
